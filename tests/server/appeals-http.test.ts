import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Appeal } from '../../src/domain/appeal.ts'
import {
  addAmo,
  addBitrix,
  allSettled,
  requestsWorld,
  type RequestsWorld,
} from './appeals-support.ts'
import { json, pngImage, uploadForm } from './helpers.ts'

/**
 * A visitor's request through the published page's own route (`POST /p/{slug}/submit`, the lead's
 * side) into the store and on to the fake CRMs: the route hands it to services.appeals.
 */
let world: RequestsWorld
let amo: Awaited<ReturnType<typeof addAmo>>
let bitrix: Awaited<ReturnType<typeof addBitrix>>
let clock = Date.now()
let slug = ''
let priceId = 0
let subscribeId = 0

beforeAll(async () => {
  world = await requestsWorld({ now: () => clock })
  amo = await addAmo(world, 'http')
  bitrix = await addBitrix(world, 'http.bitrix24.ru')
  const { server, user, projectId } = world
  const call = (path: string, body: unknown) =>
    server.call('POST', path, { token: user.token, body })
  await call('/api/project/set_type', { project_id: projectId, type: 1 })
  const bg = await json<{ id: number }>(
    await server.call('POST', '/api/project/add_bg', {
      token: user.token,
      raw: uploadForm(pngImage(64, 36), { project_id: String(projectId) }),
    }),
  )
  const place = { bg_id: bg.id, x: 50, y: 50, zindex: 1, rotation: 0 }
  const specialist = await json<{ id: number }>(
    await call('/api/specialist/add', {
      workspace_id: user.workspaceId,
      name: 'Иванова Анна',
      position: 'терапевт',
    }),
  )
  priceId = (
    await json<{ id: number }>(
      await call('/api/price/add', {
        ...place,
        color: '#2b8a3e',
        text: 'Чек-ап',
        text_price: 4900,
        button_text: '',
      }),
    )
  ).id
  subscribeId = (
    await json<{ id: number }>(
      await call('/api/subscribe/add', {
        ...place,
        specialist_id: specialist.id,
        date: '2030-05-01',
        action: '',
      }),
    )
  ).id
  slug = (
    await json<{ slug: string }>(await call('/api/project/publish', { project_id: projectId }))
  ).slug
})
afterAll(async () => {
  await world?.close()
})

async function openForm() {
  const text = await (await world.server.call('GET', `/p/${slug}`)).text()
  return {
    token: /name="form_token" value="([^"]+)"/.exec(text)![1]!,
    id: /name="submission_id" value="([^"]+)"/.exec(text)![1]!,
  }
}

let address = 0
const from = () => ({ 'X-Forwarded-For': `203.0.113.${++address}` })

const get = async (id: number) =>
  v.parse(
    Appeal,
    await json(
      await world.server.call('GET', '/api/appeal/get', { token: world.user.token, query: { id } }),
    ),
  )

describe('a request through POST /p/{slug}/submit', () => {
  it('is stored once, its phone normalised, and becomes one lead in each CRM', async () => {
    const form = await openForm()
    clock += 5_000
    const body = {
      block_id: priceId,
      name: 'Анна',
      phone: '8 (912) 345-67-89',
      consent: true,
      form_token: form.token,
      submission_id: form.id,
      website: '',
      utm_source: 'vk',
      referrer: 'https://vk.com/',
    }
    const headers = from()
    const first = await world.server.call('POST', `/p/${slug}/submit`, { body, headers })
    expect(first.status).toBe(201)
    const { id } = await json<{ id: number; status: string }>(first)
    const again = await world.server.call('POST', `/p/${slug}/submit`, { body, headers })
    expect(await json(again)).toEqual({ id, status: 'accepted' })
    await allSettled(world)
    const appeal = await get(id)
    expect(appeal).toMatchObject({
      kind: 'price',
      block_id: priceId,
      name: 'Анна',
      phone: '+79123456789',
      price: 4900,
      utm: { utm_source: 'vk' },
      status: 'new',
    })
    expect(appeal.deliveries.map((d) => d.state)).toEqual(['delivered', 'delivered'])
    const leads = amo.account.leads.filter((l) => l.name.includes(`pb-${id}-`))
    expect(leads).toHaveLength(1)
    expect(leads[0]).toMatchObject({ name: expect.stringMatching(/^Заявка: /), price: 4900 })
    const portal = world.fake.bitrix.get(bitrix.portal.host)!
    const lead = portal.leads.find((l) => String(l.fields.ORIGIN_ID).startsWith(`pb-${id}-`))!
    expect(lead.fields).toMatchObject({
      OPPORTUNITY: 4900,
      UTM_SOURCE: 'vk',
      PHONE: [{ VALUE: '+79123456789', VALUE_TYPE: 'WORK' }],
    })
    expect(String(lead.fields.COMMENTS)).toContain('Цена: Чек-ап')
  })

  it('a form sent without JavaScript is thanked with a redirect; the subscribe form names its specialist', async () => {
    const form = await openForm()
    clock += 5_000
    const res = await world.server.call('POST', `/p/${slug}/submit`, {
      raw: new URLSearchParams({
        block_id: String(subscribeId),
        name: 'Пётр',
        phone: '+7 912 3456789',
        comment: 'Утром',
        consent: 'on',
        form_token: form.token,
        submission_id: form.id,
        website: '',
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...from() },
    })
    expect(res.status).toBe(303)
    await allSettled(world)
    const list = v.parse(
      v.array(Appeal),
      await json(
        await world.server.call('GET', '/api/appeal/list', {
          token: world.user.token,
          query: { workspace_id: world.user.workspaceId },
        }),
      ),
    )
    const appeal = list[0]!
    expect(appeal).toMatchObject({
      kind: 'subscribe',
      name: 'Пётр',
      comment: 'Утром',
      date: '2030-05-01',
    })
    const portal = world.fake.bitrix.get(bitrix.portal.host)!
    const lead = portal.leads.find((l) =>
      String(l.fields.ORIGIN_ID).startsWith(`pb-${appeal.id}-`),
    )!
    expect(String(lead.fields.COMMENTS)).toContain('Специалист: Иванова Анна, терапевт')
    const amoLead = amo.account.leads.find((l) => l.name.includes(`pb-${appeal.id}-`))!
    expect(amoLead.metadata?.form_name).toBe('Запись на приём · Иванова Анна · 2030-05-01')
  })

  it('a form with the hidden field filled is kept as spam and sent nowhere', async () => {
    const before = [
      amo.account.leads.length,
      world.fake.bitrix.get(bitrix.portal.host)!.leads.length,
    ]
    const form = await openForm()
    clock += 5_000
    const res = await world.server.call('POST', `/p/${slug}/submit`, {
      body: {
        block_id: priceId,
        name: 'Бот',
        phone: '+79123456789',
        consent: true,
        form_token: form.token,
        submission_id: form.id,
        website: 'http://spam.example',
      },
      headers: from(),
    })
    expect(res.status).toBe(201)
    const { id } = await json<{ id: number }>(res)
    await allSettled(world)
    const appeal = await get(id)
    expect(appeal.status).toBe('spam')
    expect(appeal.deliveries.map((d) => d.state)).toEqual(['skipped', 'skipped'])
    expect([
      amo.account.leads.length,
      world.fake.bitrix.get(bitrix.portal.host)!.leads.length,
    ]).toEqual(before)
  })
})
