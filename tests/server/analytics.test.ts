import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnalyticsSummary } from '../../src/domain/analytics.ts'
import { createApp, type ApiApp } from '../../server/index.ts'
import type { SubmissionCount } from '../../server/analytics/summary.ts'
import {
  json,
  pngImage,
  secondInstance,
  testServer,
  textBlock,
  uploadForm,
  type TestServer,
  type TestUser,
} from './helpers.ts'

/**
 * Analytics of published pages (docs/analytics.md, docs/API.md "Analytics"): views of GET
 * /p/{slug} (200 and 304; not HEAD, robots or the app's preview), unique visitors per Moscow
 * day, sources and devices, clicks by beacon, batches written by flush and on close, several
 * instances adding up, and the summary for members only.
 */
let s: TestServer
let u: TestUser
// 2026-03-10 15:00 in Moscow.
let clock = Date.parse('2026-03-10T12:00:00Z')
let requests: SubmissionCount[] = []

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36'
const TABLET =
  'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36'

beforeAll(async () => {
  s = await testServer({
    now: () => clock,
    trustProxy: 1,
    analyticsFlushMs: 0,
    analyticsSubmissions: async (_db, q) =>
      requests.filter(
        (r) => r.day >= q.from && r.day <= q.to && (!q.project_id || r.project_id === q.project_id),
      ),
  })
  u = await s.signUp()
})
afterAll(() => s.close())

async function publishedPage(name: string, user = u) {
  const project = await json<{ id: number }>(
    await s.call('POST', '/api/project/add', {
      token: user.token,
      body: { workspace_id: user.workspaceId, name },
    }),
  )
  const bg = await json<{ id: number }>(
    await s.call('POST', '/api/project/add_bg', {
      token: user.token,
      raw: uploadForm(pngImage(64, 36), { project_id: String(project.id) }),
    }),
  )
  await s.call('POST', '/api/text/add', { token: user.token, body: textBlock(bg.id) })
  const res = await s.call('POST', '/api/project/publish', {
    token: user.token,
    body: { project_id: project.id },
  })
  expect(res.status).toBe(200)
  const { slug } = await json<{ slug: string }>(res)
  return { id: project.id, slug }
}

const visit = (
  slug: string,
  o: { ua?: string; ip?: string; query?: string; headers?: Record<string, string> } = {},
  method = 'GET',
) =>
  s.call(method, `/p/${slug}${o.query ?? ''}`, {
    headers: {
      'User-Agent': o.ua ?? PHONE,
      'X-Forwarded-For': o.ip ?? '203.0.113.1',
      ...o.headers,
    },
  })

const summary = (query: Record<string, string | number>, user = u) =>
  s.call('GET', '/api/analytics/summary', {
    token: user.token,
    query: { workspace_id: user.workspaceId, ...query },
  })

const figures = async (query: Record<string, string | number>, user = u) => {
  await s.app.analytics.flush()
  const res = await summary(query, user)
  expect(res.status).toBe(200)
  return json<AnalyticsSummary>(res)
}

describe('counting views', () => {
  it('counts 200 and 304, not HEAD, robots, link previews or the app preview', async () => {
    const { id, slug } = await publishedPage('Счёт')
    const first = await visit(slug)
    expect(first.status).toBe(200)
    const etag = first.headers.get('ETag')!
    expect((await visit(slug, { headers: { 'If-None-Match': etag } })).status).toBe(304)
    expect((await visit(slug, {}, 'HEAD')).status).toBe(200)
    for (const ua of [
      'TelegramBot (like TwitterBot)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Mozilla/5.0 (compatible; vkShare; +http://vk.com/dev/Share)',
      'WhatsApp/2.23.20.0',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      '',
    ]) {
      expect((await visit(slug, { ua })).status).toBe(200)
    }
    await visit(slug, { query: '?preview=1' })
    await visit(slug, { headers: { Referer: 'http://localhost/projects/1' } })
    const f = await figures({ from: '2026-03-10', to: '2026-03-10', project_id: id })
    expect(f.totals.views).toBe(2)
    expect(f.totals.visitors).toBe(1)
    expect(f.projects).toEqual([
      { project_id: id, name: 'Счёт', views: 2, visitors: 1, submissions: 0, conversion: 0 },
    ])
  })

  it('tells visitors apart by address and User-Agent, sources and devices', async () => {
    const { id, slug } = await publishedPage('Источники')
    await visit(slug, { ip: '198.51.100.1', query: '?utm_source=VK&utm_medium=post' })
    await visit(slug, { ip: '198.51.100.1' })
    await visit(slug, {
      ip: '198.51.100.2',
      ua: ANDROID,
      headers: { Referer: 'https://www.google.ru/search?q=1' },
    })
    await visit(slug, { ip: '198.51.100.2', ua: TABLET })
    await visit(slug, { ip: '198.51.100.3', ua: DESKTOP })
    await visit(slug, { ip: '198.51.100.3', ua: DESKTOP })
    const f = await figures({ from: '2026-03-10', to: '2026-03-10', project_id: id })
    expect(f.totals).toMatchObject({ views: 6, visitors: 4 })
    // A visitor counts once a day, under the first source and device it came with.
    const bySource = Object.fromEntries(f.sources.map((x) => [x.source, [x.views, x.visitors]]))
    expect(bySource).toEqual({ vk: [1, 1], '': [4, 2], 'google.ru': [1, 1] })
    expect(f.devices).toEqual([
      { device: 'phone', views: 3 },
      { device: 'tablet', views: 1 },
      { device: 'computer', views: 2 },
    ])
    expect(f.days).toEqual([{ date: '2026-03-10', views: 6, visitors: 4, submissions: 0 }])
  })

  it('counts by Moscow days: 23:59 and 00:00 in Moscow are two days', async () => {
    const { id, slug } = await publishedPage('Полночь')
    clock = Date.parse('2026-03-10T20:59:59Z') // 23:59:59 in Moscow
    await visit(slug)
    await s.app.analytics.flush()
    clock = Date.parse('2026-03-10T21:00:00Z') // 00:00 of the 11th in Moscow, 21:00 in UTC
    await visit(slug)
    await visit(slug)
    const f = await figures({ from: '2026-03-09', to: '2026-03-11', project_id: id })
    expect(f.days).toEqual([
      { date: '2026-03-09', views: 0, visitors: 0, submissions: 0 },
      { date: '2026-03-10', views: 1, visitors: 1, submissions: 0 },
      { date: '2026-03-11', views: 2, visitors: 1, submissions: 0 },
    ])
    // The same person on two days is a visitor of each: a new salt, nothing joins them.
    expect(f.totals.visitors).toBe(2)
    // Once the day is over (and its grace), its salt and hashes are gone; its counts stay.
    clock = Date.parse('2026-03-10T21:15:00Z')
    await visit(slug)
    await s.app.analytics.flush()
    const { services } = await s.app.ready()
    const { rows } = await services.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM analytics_salts WHERE day < '2026-03-11')::int
            + (SELECT count(*) FROM analytics_visitors WHERE day < '2026-03-11')::int AS n`,
    )
    expect(rows[0]!.n).toBe(0)
    const after = await figures({ from: '2026-03-10', to: '2026-03-10', project_id: id })
    expect(after.totals).toMatchObject({ views: 1, visitors: 1 })
    clock = Date.parse('2026-03-10T12:00:00Z')
  })

  it('counts clicks sent by the page script', async () => {
    const { id, slug } = await publishedPage('Клики')
    const beacon = (ua = PHONE) =>
      s.call('POST', `/p/${slug}/beacon`, {
        headers: {
          'User-Agent': ua,
          'X-Forwarded-For': '203.0.113.9',
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        raw: 's=vk&r=',
      })
    expect((await beacon()).status).toBe(204)
    expect((await beacon()).status).toBe(204)
    expect((await beacon('Googlebot/2.1 (+http://www.google.com/bot.html)')).status).toBe(204)
    expect((await s.call('POST', '/p/no-such-page/beacon', { raw: '' })).status).toBe(204)
    const f = await figures({ from: '2026-03-10', to: '2026-03-10', project_id: id })
    expect(f.totals).toMatchObject({ views: 0, clicks: 2 })
  })
})

describe('batches', () => {
  it('gathers views in memory and writes them in one batch', async () => {
    const { id, slug } = await publishedPage('Пачка')
    await s.app.analytics.flush()
    const before = s.app.analytics.written.batches
    for (let i = 0; i < 20; i++) await visit(slug, { ip: `192.0.2.${i}` })
    expect(s.app.analytics.pending).toBe(20)
    const { services } = await s.app.ready()
    const stored = async () =>
      (
        await services.db.query<{ n: number }>(
          'SELECT coalesce(sum(views), 0)::int AS n FROM analytics_days WHERE project_id = $1',
          [id],
        )
      ).rows[0]!.n
    expect(await stored()).toBe(0)
    await s.app.analytics.flush()
    expect(s.app.analytics.written.batches).toBe(before + 1)
    expect(await stored()).toBe(20)
  })

  it('two instances add up, a visitor of both counted once; a graceful stop writes what is gathered', async () => {
    const { id, slug } = await publishedPage('Два экземпляра')
    const other = await secondInstance(s, {
      now: () => clock,
      trustProxy: 1,
      analyticsFlushMs: 0,
    })
    const onOther = (ip: string) =>
      other.request(`/p/${slug}`, {
        headers: { 'User-Agent': PHONE, 'X-Forwarded-For': ip },
      })
    await visit(slug, { ip: '192.0.2.50' })
    await visit(slug, { ip: '192.0.2.51' })
    expect((await onOther('192.0.2.50')).status).toBe(200)
    expect((await onOther('192.0.2.52')).status).toBe(200)
    await s.app.analytics.flush()
    // The other instance is stopped with its views unwritten: close() writes them.
    expect(other.analytics.pending).toBe(2)
    await other.close()
    const f = await figures({ from: '2026-03-10', to: '2026-03-10', project_id: id })
    expect(f.totals).toMatchObject({ views: 4, visitors: 3 })
  })

  it('a restart over the same data loses no view', async () => {
    const { services } = await s.app.ready()
    const { id, slug } = await publishedPage('Перезапуск')
    const first: ApiApp = createApp({
      db: services.db,
      analyticsFlushMs: 0,
      trustProxy: 1,
      now: () => clock,
    })
    await first.ready()
    for (let i = 0; i < 30; i++) {
      await first.request(`/p/${slug}`, {
        headers: { 'User-Agent': DESKTOP, 'X-Forwarded-For': `192.0.2.${100 + (i % 7)}` },
      })
    }
    await first.close()
    const second = createApp({ db: services.db, analyticsFlushMs: 0, now: () => clock })
    await second.ready()
    await second.close()
    const f = await figures({ from: '2026-03-10', to: '2026-03-10', project_id: id })
    expect(f.totals).toMatchObject({ views: 30, visitors: 7 })
  })
})

describe('the summary', () => {
  it('puts requests beside views: conversion per page and in all', async () => {
    const a = await publishedPage('Конверсия А')
    const b = await publishedPage('Конверсия Б')
    await visit(a.slug, { ip: '198.18.0.1' })
    await visit(a.slug, { ip: '198.18.0.2' })
    await visit(b.slug, { ip: '198.18.0.3', query: '?utm_source=vk' })
    requests = [
      { day: '2026-03-10', project_id: a.id, source: '', submissions: 1 },
      { day: '2026-03-10', project_id: b.id, source: 'vk', submissions: 1 },
    ]
    const one = await figures({ from: '2026-03-10', to: '2026-03-10', project_id: a.id })
    expect(one.totals).toEqual({
      views: 2,
      visitors: 2,
      submissions: 1,
      clicks: 0,
      conversion: 0.5,
    })
    expect(one.days).toEqual([{ date: '2026-03-10', views: 2, visitors: 2, submissions: 1 }])
    const all = await figures({ from: '2026-03-10', to: '2026-03-10' })
    const rows = Object.fromEntries(all.projects.map((p) => [p.project_id, p]))
    expect(rows[a.id]).toMatchObject({ visitors: 2, submissions: 1, conversion: 0.5 })
    expect(rows[b.id]).toMatchObject({ visitors: 1, submissions: 1, conversion: 1 })
    expect(all.sources.find((x) => x.source === 'vk')).toMatchObject({ submissions: 1 })
    requests = []
  })

  it('is for members only: another workspace and its page are 404', async () => {
    const stranger = await s.signUp('Чужой')
    const { id } = await publishedPage('Чужая страница', stranger)
    expect(
      (
        await summary(
          { from: '2026-03-10', to: '2026-03-10' },
          { ...u, workspaceId: stranger.workspaceId },
        )
      ).status,
    ).toBe(404)
    expect((await summary({ from: '2026-03-10', to: '2026-03-10', project_id: id })).status).toBe(
      404,
    )
    expect(
      (
        await s.call('GET', '/api/analytics/summary', {
          query: { workspace_id: u.workspaceId, from: '2026-03-10', to: '2026-03-10' },
        })
      ).status,
    ).toBe(401)
    expect((await summary({ from: '2026-03-11', to: '2026-03-10' })).status).toBe(422)
    expect((await summary({ from: '2026-02-30', to: '2026-03-10' })).status).toBe(422)
    expect((await summary({ from: '2024-01-01', to: '2026-03-10' })).status).toBe(422)
  })

  it('with no table of requests yet, counts none', async () => {
    const { appealCounts } = await import('../../server/analytics/summary.ts')
    const { services } = await s.app.ready()
    const q = { workspace_id: u.workspaceId, from: '2026-03-10', to: '2026-03-10' }
    const { rows } = await services.db.query<{ found: boolean }>(
      `SELECT to_regclass('appeals') IS NOT NULL AS found`,
    )
    if (!rows[0]!.found) expect(await appealCounts(services.db, q, null)).toEqual([])
  })
})
