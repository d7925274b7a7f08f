import { createHmac } from 'node:crypto'
import { once } from 'node:events'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Appeal, IntegrationState } from '../../src/domain/appeal.ts'
import { Outbound, OutboundError, isForbiddenAddress } from '../../server/crm/outbound.ts'
import {
  addAmo,
  addBitrix,
  allSettled,
  requestsWorld,
  submission,
  type RequestsWorld,
} from './appeals-support.ts'
import { addMember, json } from './helpers.ts'
import { waitUntil } from '../support/fake-crm.ts'
import { SseReader } from './sse.ts'

/** The contract of visitors' requests (docs/API.md "Requests", docs/crm.md) against the fakes. */
describe('requests: submit and deliver', () => {
  let world: RequestsWorld
  let amo: Awaited<ReturnType<typeof addAmo>>
  let bitrix: Awaited<ReturnType<typeof addBitrix>>

  beforeAll(async () => {
    world = await requestsWorld()
    amo = await addAmo(world, 'clinic')
    bitrix = await addBitrix(world, 'clinic.bitrix24.ru')
  })
  afterAll(async () => {
    await world.close()
  })

  it('writes the request with a delivery per integration and delivers it once to each CRM', async () => {
    const sent = submission(world, { specialist_id: null, price: null })
    const first = await world.services.appeals.submit(sent)
    expect(first.created).toBe(true)
    const again = await world.services.appeals.submit(sent)
    expect(again).toEqual({ id: first.id, created: false })
    await allSettled(world)

    expect(amo.account.leads).toHaveLength(1)
    const lead = amo.account.leads[0]!
    expect(lead.name).toMatch(/^Запись: Акция на чистку зубов \[pb-\d+-[0-9a-z]{6}\]$/)
    expect(lead.tags).toEqual(['Промо-конструктор', 'Акция на чистку зубов'])
    expect(lead.contacts[0]).toEqual({
      name: 'Мария Петрова',
      custom_fields_values: [
        { field_code: 'PHONE', values: [{ value: '+79123456789', enum_code: 'WORK' }] },
        { field_code: 'EMAIL', values: [{ value: 'maria@example.ru', enum_code: 'WORK' }] },
      ],
    })
    expect(lead.metadata).toMatchObject({
      category: 'forms',
      form_page: 'https://promo.example.ru/p/akciya',
      ip: '203.0.113.7',
      referer: 'https://vk.com/',
    })

    const portal = world.fake.bitrix.get('clinic.bitrix24.ru')!
    expect(portal.leads).toHaveLength(1)
    const fields = portal.leads[0]!.fields
    expect(fields).toMatchObject({
      TITLE: 'Запись: Акция на чистку зубов',
      NAME: 'Мария Петрова',
      PHONE: [{ VALUE: '+79123456789', VALUE_TYPE: 'WORK' }],
      EMAIL: [{ VALUE: 'maria@example.ru', VALUE_TYPE: 'WORK' }],
      CURRENCY_ID: 'RUB',
      SOURCE_ID: 'WEB',
      SOURCE_DESCRIPTION: 'https://promo.example.ru/p/akciya',
      UTM_SOURCE: 'vk',
      UTM_CAMPAIGN: 'spring',
      ORIGINATOR_ID: 'promo-builder',
    })
    expect(String(fields.COMMENTS)).toContain('Комментарий: Лучше после обеда')
    expect(String(fields.COMMENTS)).toContain('Дата: 2030-05-01')
    expect(portal.leads[0]!.params).toEqual({ REGISTER_SONET_EVENT: 'Y' })

    const res = await world.server.call('GET', '/api/appeal/get', {
      token: world.user.token,
      query: { id: first.id },
    })
    expect(res.status).toBe(200)
    const appeal = v.parse(Appeal, await res.json())
    expect(appeal).toMatchObject({
      id: first.id,
      kind: 'subscribe',
      phone: '+79123456789',
      status: 'new',
      utm: { utm_source: 'vk', utm_campaign: 'spring' },
      version: 1,
    })
    expect(appeal.deliveries).toEqual([
      {
        integration_kind: 'amo',
        integration_id: amo.id,
        state: 'delivered',
        crm_id: String(lead.id),
        attempts: 1,
        last_error: '',
        next_attempt_at: null,
      },
      {
        integration_kind: 'bitrix',
        integration_id: bitrix.id,
        state: 'delivered',
        crm_id: portal.leads[0]!.ID,
        attempts: 1,
        last_error: '',
        next_attempt_at: null,
      },
    ])
    expect(fields.ORIGIN_ID).toBe(lead.name.match(/\[(.+)\]/)![1])
  })

  it('writes requests sent at once together, each once with its own deliveries, and one that cannot be stored fails alone', async () => {
    const amoBefore = amo.account.leads.length
    const portal = world.fake.bitrix.get('clinic.bitrix24.ru')!
    const bitrixBefore = portal.leads.length
    const repeated = submission(world)
    const sent = [
      ...Array.from({ length: 12 }, (_, i) => submission(world, { name: `Посетитель ${i}` })),
      repeated,
      { ...repeated },
      submission(world, { spam: true }),
      // No such workspace: the database refuses this one, and only this one.
      submission(world, { workspace_id: 2_000_000_000 }),
    ]
    const answers = await Promise.allSettled(sent.map((s) => world.services.appeals.submit(s)))
    const refused = answers.filter((a) => a.status === 'rejected')
    expect(refused).toHaveLength(1)
    expect(answers[15]!.status).toBe('rejected')
    const ids = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []))
    expect(ids).toHaveLength(15)
    // The same submission twice at once is one request.
    expect(ids[13]!.id).toBe(ids[12]!.id)
    expect([ids[12]!.created, ids[13]!.created].sort()).toEqual([false, true])
    expect(new Set(ids.map((a) => a.id)).size).toBe(14)
    await allSettled(world)

    // 13 requests, each one lead in each CRM; spam none.
    expect(amo.account.leads.length - amoBefore).toBe(13)
    expect(portal.leads.length - bitrixBefore).toBe(13)
    const names = amo.account.leads.slice(amoBefore).map((l) => l.contacts[0]!.name)
    expect(new Set(names).size).toBe(13)
    for (const { id } of ids) {
      const res = await world.server.call('GET', `/api/appeal/get?id=${id}`, {
        token: world.user.token,
      })
      const appeal = await json<{ status: string; deliveries: { state: string }[] }>(res)
      expect(appeal.deliveries.map((d) => d.state)).toEqual(
        appeal.status === 'spam' ? ['skipped', 'skipped'] : ['delivered', 'delivered'],
      )
    }
  })

  it('takes the same submission id from another phone as another visitor’s request, once', async () => {
    // A copy of the page a cache kept carries one id to everyone who gets it; without the page's
    // script the form sends it as it is.
    const amoBefore = amo.account.leads.length
    const cached = submission(world, { name: 'Первый посетитель' })
    const first = await world.services.appeals.submit(cached)
    const other = { ...cached, name: 'Второй посетитель', phone: '+79001112233' }
    const second = await world.services.appeals.submit(other)
    expect(second.created).toBe(true)
    expect(second.id).not.toBe(first.id)
    // Each visitor's repeat is still their one request.
    expect(await world.services.appeals.submit(other)).toEqual({ id: second.id, created: false })
    expect(await world.services.appeals.submit({ ...cached })).toEqual({
      id: first.id,
      created: false,
    })
    await allSettled(world)
    const names = amo.account.leads.slice(amoBefore).map((l) => l.contacts[0]!.name)
    expect(names.sort()).toEqual(['Второй посетитель', 'Первый посетитель'])
  })
})

describe('requests: the API', () => {
  let world: RequestsWorld
  let amo: Awaited<ReturnType<typeof addAmo>>

  beforeAll(async () => {
    world = await requestsWorld()
    amo = await addAmo(world, 'dental')
    await addBitrix(world, 'dental.bitrix24.ru')
  })
  afterAll(async () => {
    await world.close()
  })

  const call = (
    method: string,
    path: string,
    options: Parameters<RequestsWorld['server']['call']>[2] = {},
  ) => world.server.call(method, path, { token: world.user.token, ...options })

  it('lists the workspace’s requests newest first, in windows, to members only', async () => {
    const ids: number[] = []
    for (let i = 0; i < 3; i++)
      ids.push((await world.services.appeals.submit(submission(world))).id)
    const res = await call('GET', '/api/appeal/list', {
      query: { workspace_id: world.user.workspaceId },
    })
    expect(res.status).toBe(200)
    const list = v.parse(v.array(Appeal), await res.json())
    expect(list.map((a) => a.id).slice(0, 3)).toEqual([...ids].reverse())
    const window = v.parse(
      v.array(Appeal),
      await (
        await call('GET', '/api/appeal/list', {
          query: { workspace_id: world.user.workspaceId, before: ids[2]!, limit: 1 },
        })
      ).json(),
    )
    expect(window.map((a) => a.id)).toEqual([ids[1]])

    const stranger = await world.server.signUp('Посторонний')
    const as = { token: stranger.token }
    expect(
      (
        await world.server.call('GET', '/api/appeal/list', {
          ...as,
          query: { workspace_id: world.user.workspaceId },
        })
      ).status,
    ).toBe(404)
    expect(
      (await world.server.call('GET', '/api/appeal/get', { ...as, query: { id: ids[0]! } })).status,
    ).toBe(404)
    expect(
      (
        await world.server.call('POST', '/api/appeal/update', {
          ...as,
          body: { id: ids[0], status: 'done' },
        })
      ).status,
    ).toBe(404)
    expect(
      (await world.server.call('POST', '/api/appeal/retry', { ...as, body: { id: ids[0] } }))
        .status,
    ).toBe(404)
    expect(
      (
        await world.server.call('GET', '/api/appeal/list', {
          query: { workspace_id: world.user.workspaceId },
        })
      ).status,
    ).toBe(401)
    await allSettled(world)
  })

  it('moves a request through its statuses with If-Match, and refuses a stale one with the current row', async () => {
    const { id } = await world.services.appeals.submit(submission(world))
    const moved = await call('POST', '/api/appeal/update', {
      body: { id, status: 'in_work' },
      headers: { 'If-Match': '1' },
    })
    expect(moved.status).toBe(200)
    expect(await json(moved)).toMatchObject({ id, status: 'in_work', version: 2 })
    const stale = await call('POST', '/api/appeal/update', {
      body: { id, status: 'done' },
      headers: { 'If-Match': '1' },
    })
    expect(stale.status).toBe(409)
    const body = await json<{ error: { current: { status: string; version: number } } }>(stale)
    expect(body.error.current).toMatchObject({ status: 'in_work', version: 2 })
    const bad = await call('POST', '/api/appeal/update', { body: { id, status: 'archived' } })
    expect(bad.status).toBe(422)
    await allSettled(world)
  })

  it('keeps spam with its deliveries skipped and sends nothing; taken out of spam, it goes', async () => {
    const leadsBefore = amo.account.leads.length
    const spam = await world.services.appeals.submit(submission(world, { spam: true }))
    const appeal = v.parse(
      Appeal,
      await json(await call('GET', '/api/appeal/get', { query: { id: spam.id } })),
    )
    expect(appeal.status).toBe('spam')
    expect(appeal.deliveries.map((d) => [d.state, d.last_error])).toEqual([
      ['skipped', 'Не отправлено: спам'],
      ['skipped', 'Не отправлено: спам'],
    ])
    await allSettled(world)
    expect(amo.account.leads.length).toBe(leadsBefore)
    const res = await call('POST', '/api/appeal/update', { body: { id: spam.id, status: 'new' } })
    expect(res.status).toBe(200)
    await allSettled(world)
    expect(amo.account.leads.length).toBe(leadsBefore + 1)
  })

  it('refuses a malformed submission and writes nothing', async () => {
    const count = async () =>
      (await world.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM appeals'))
        .rows[0]!.n
    const before = await count()
    await expect(
      world.services.appeals.submit(submission(world, { phone: '8 912 345-67-89' })),
    ).rejects.toMatchObject({ status: 422, fields: { phone: { code: 'invalid_phone' } } })
    await expect(
      world.services.appeals.submit(submission(world, { name: '' })),
    ).rejects.toMatchObject({ status: 422 })
    expect(await count()).toBe(before)
  })

  it('lets only an admin delete a request', async () => {
    const editor = await world.server.signUp('Редактор')
    await addMember(world.server, world.user.token, world.user.workspaceId, editor)
    const { id } = await world.services.appeals.submit(submission(world))
    const asEditor = await world.server.call('POST', '/api/appeal/delete', {
      token: editor.token,
      body: { id },
    })
    expect(asEditor.status).toBe(403)
    expect(
      (await world.server.call('GET', '/api/appeal/get', { token: editor.token, query: { id } }))
        .status,
    ).toBe(200)
    const asAdmin = await call('POST', '/api/appeal/delete', { body: { id } })
    expect(await json(asAdmin)).toEqual({ id, deleted: true })
    expect((await call('GET', '/api/appeal/get', { query: { id } })).status).toBe(404)
    await allSettled(world)
  })

  it('streams a request’s arrival and its deliveries’ progress on /api/events', async () => {
    const res = await call('GET', '/api/events', {
      query: { workspace_id: world.user.workspaceId },
    })
    const events = new SseReader(res)
    await events.next()
    const { id } = await world.services.appeals.submit(submission(world))
    const seen: Record<string, unknown>[] = []
    while (seen.filter((e) => e.deliveries === true).length < 2) {
      const { data } = await events.change()
      if (data.table === 'appeal' && data.id === id) seen.push(data)
    }
    await events.cancel()
    expect(seen[0]).toEqual({ table: 'appeal', id, version: 1, op: 'add' })
    expect(seen.slice(1)).toEqual([
      { table: 'appeal', id, version: 1, op: 'update', deliveries: true },
      { table: 'appeal', id, version: 1, op: 'update', deliveries: true },
    ])
  })

  it('answers the long-lived token masked, never in full, and keeps it when sent back masked', async () => {
    const got = await json<{ long_lived_token: string; version: number }>(
      await call('GET', '/api/amo/get', { query: { id: amo.id } }),
    )
    expect(got.long_lived_token).toMatch(/^••••.{4}$/)
    const updated = await call('POST', '/api/amo/update', {
      body: { id: amo.id, name: 'Основная воронка', long_lived_token: got.long_lived_token },
    })
    expect(updated.status).toBe(200)
    await world.services.appeals.submit(submission(world))
    await allSettled(world)
    const { rows } = await world.services.db.query<{ state: string }>(
      `SELECT state FROM appeal_deliveries WHERE integration_kind = 'amo' ORDER BY id DESC LIMIT 1`,
    )
    expect(rows[0]!.state).toBe('delivered')
    const listed = await json<{ long_lived_token: string }[]>(
      await call('GET', '/api/amo/list', { query: { workspace_id: world.user.workspaceId } }),
    )
    expect(JSON.stringify(listed)).not.toContain('llt-')
  })

  it('signs the gift’s web hook with the workspace’s secret', async () => {
    const { id } = await world.services.appeals.submit(
      submission(world, { kind: 'gift', hook_url: 'https://hooks.clinic.example/promo' }),
    )
    await allSettled(world)
    const hook = world.fake.hooks.find((h) => (JSON.parse(h.body) as { id: number }).id === id)!
    expect(hook.path).toBe('/promo')
    expect(hook.headers['x-promo-request-id']).toBe(String(id))
    const secret = await json<{ secret: string }>(
      await call('GET', '/api/workspace/hook_secret', {
        query: { workspace_id: world.user.workspaceId },
      }),
    )
    const expected = `sha256=${createHmac('sha256', secret.secret).update(hook.body).digest('hex')}`
    expect(hook.headers['x-promo-signature']).toBe(expected)
    expect(JSON.parse(hook.body)).toMatchObject({ id, kind: 'gift', phone: '+79123456789' })
  })

  it('says each integration’s state and counts, and «Проверить» asks the CRM', async () => {
    const states = v.parse(
      v.array(IntegrationState),
      await json(
        await call('GET', '/api/integration/state', {
          query: { workspace_id: world.user.workspaceId },
        }),
      ),
    )
    expect(states.map((s) => [s.kind, s.state, s.message])).toEqual([
      ['amo', 'connected', 'Подключено'],
      ['bitrix', 'connected', 'Подключено'],
    ])
    expect(states[0]!.delivered).toBeGreaterThan(3)
    expect(states[0]!.last_delivered_at).toMatch(/^\d{4}-\d\d-\d\dT/)
    const amoCheck = await json(await call('POST', '/api/amo/check', { body: { id: amo.id } }))
    expect(amoCheck).toEqual({
      ok: true,
      message: 'amoCRM отвечает: аккаунт «Клиника dental» доступен',
    })
    const bitrixId = states[1]!.id
    expect(await json(await call('POST', '/api/bitrix/check', { body: { id: bitrixId } }))).toEqual(
      {
        ok: true,
        message: 'Битрикс24 отвечает: вебхук работает от имени «Анна Иванова»',
      },
    )
    const broken = await call('POST', '/api/bitrix/update', {
      body: { id: bitrixId, webhook_url: 'https://dental.bitrix24.ru/rest/1/wrongcode/' },
    })
    expect(broken.status).toBe(200)
    expect(await json(await call('POST', '/api/bitrix/check', { body: { id: bitrixId } }))).toEqual(
      {
        ok: false,
        message: 'Битрикс24 не принимает вебхук: проверьте его адрес: Invalid request credentials',
      },
    )
  })
})

describe('requests: faults', () => {
  let world: RequestsWorld
  let amo: Awaited<ReturnType<typeof addAmo>>
  let bitrix: Awaited<ReturnType<typeof addBitrix>>
  /** What the server logged (JSON lines in production). */
  const logged: Record<string, unknown>[] = []

  beforeAll(async () => {
    world = await requestsWorld(
      { log: (entry) => logged.push(entry) },
      { amoPerSecond: 70, bitrixDrainPerSecond: 70 },
    )
    amo = await addAmo(world, 'faults')
    bitrix = await addBitrix(world, 'faults.bitrix24.ru')
  })
  afterAll(async () => {
    await world.close()
  })

  const get = async (id: number) =>
    v.parse(
      Appeal,
      await json(
        await world.server.call('GET', '/api/appeal/get', {
          token: world.user.token,
          query: { id },
        }),
      ),
    )

  it('takes the lead a timed-out call stored instead of making another', async () => {
    let hung = 0
    world.fake.fault = (c) => (c.action === 'lead.add' && hung++ < 2 ? 'store-then-hang' : 'ok')
    const { id } = await world.services.appeals.submit(submission(world))
    await allSettled(world)
    world.fake.fault = () => 'ok'
    const appeal = await get(id)
    const amoLeads = amo.account.leads.filter((l) => l.name.includes(`pb-${id}-`))
    const bitrixLeads = world.fake.bitrix
      .get(bitrix.portal.host)!
      .leads.filter((l) => String(l.fields.ORIGIN_ID).startsWith(`pb-${id}-`))
    expect(amoLeads).toHaveLength(1)
    expect(bitrixLeads).toHaveLength(1)
    expect(appeal.deliveries.map((d) => [d.state, d.attempts])).toEqual([
      ['delivered', 2],
      ['delivered', 2],
    ])
    expect(appeal.deliveries[0]!.crm_id).toBe(String(amoLeads[0]!.id))
    expect(appeal.deliveries[1]!.crm_id).toBe(bitrixLeads[0]!.ID)
    const calls = world.fake.log.filter((c) => c.action === 'lead.list')
    expect(calls.length).toBeGreaterThanOrEqual(2)
  })

  it('fails at once on a refusal, with the CRM’s words in Russian, and sends again on «Повторить»', async () => {
    world.fake.fault = (c) =>
      c.service === 'amo' && c.action === 'lead.add'
        ? {
            status: 400,
            body: JSON.stringify({
              title: 'Bad Request',
              status: 400,
              'validation-errors': [
                {
                  request_id: '0',
                  errors: [
                    {
                      code: 'InvalidType',
                      path: 'price',
                      detail: 'This value should be of type int.',
                    },
                  ],
                },
              ],
            }),
          }
        : 'ok'
    const { id } = await world.services.appeals.submit(submission(world))
    await allSettled(world)
    const failed = await get(id)
    expect(failed.deliveries[0]).toMatchObject({
      integration_kind: 'amo',
      state: 'failed',
      attempts: 1,
      last_error: 'amoCRM отклонила заявку: price: This value should be of type int.',
    })
    expect(failed.deliveries[1]!.state).toBe('delivered')
    world.fake.fault = () => 'ok'
    const retried = await world.server.call('POST', '/api/appeal/retry', {
      token: world.user.token,
      body: { id },
    })
    expect(retried.status).toBe(200)
    await allSettled(world)
    const done = await get(id)
    expect(done.deliveries.map((d) => d.state)).toEqual(['delivered', 'delivered'])
    expect(amo.account.leads.filter((l) => l.name.includes(`pb-${id}-`))).toHaveLength(1)
  })

  it('retries 5xx and gives up after its time, failed with the last error', async () => {
    world.fake.fault = (c) => (c.service === 'bitrix' ? { status: 502 } : 'ok')
    await world.services.db.query(`UPDATE appeal_deliveries SET give_up_at = NULL`)
    const { id } = await world.services.appeals.submit(submission(world))
    // Give up after the attempts so far: the day is made short by moving give_up_at.
    await waitUntil(
      async () => (await get(id)).deliveries[1]!.attempts >= 3,
      [world.services.deliveries.events],
      20_000,
      'three attempts',
    )
    await world.services.db.query(
      `UPDATE appeal_deliveries SET give_up_at = now() WHERE appeal_id = $1`,
      [id],
    )
    await allSettled(world)
    world.fake.fault = () => 'ok'
    const appeal = await get(id)
    expect(appeal.deliveries[1]).toMatchObject({
      state: 'failed',
      last_error: 'Ошибка на стороне CRM: HTTP 502',
    })
    expect(appeal.deliveries[1]!.attempts).toBeGreaterThanOrEqual(3)
  })

  it('waits as long as Retry-After says after a 429', async () => {
    const times: number[] = []
    let refused = false
    world.fake.fault = (c) => {
      if (c.service !== 'amo' || c.action !== 'lead.add') return 'ok'
      times.push(Date.now())
      if (refused) return 'ok'
      refused = true
      return { status: 429, body: '{}', headers: { 'Retry-After': '1' } }
    }
    const { id } = await world.services.appeals.submit(submission(world))
    await allSettled(world)
    world.fake.fault = () => 'ok'
    expect((await get(id)).deliveries[0]!.state).toBe('delivered')
    expect(times).toHaveLength(2)
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950)
  })
  it('never logs a visitor’s name, phone, email or comment, though every failure is logged', async () => {
    const failures = logged.filter((e) => e.event === 'delivery_attempt_failed')
    expect(failures.length).toBeGreaterThan(3)
    expect(failures[0]).toMatchObject({ appeal_id: expect.any(Number), code: expect.any(String) })
    const text = JSON.stringify(logged)
    for (const secret of [
      '+79123456789',
      'Мария',
      'maria@example.ru',
      'Лучше после обеда',
      'llt-',
    ]) {
      expect(text).not.toContain(secret)
    }
  })
})

describe('requests: outbound calls', () => {
  it('refuses loopback and private addresses outside tests', async () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.10',
      '172.20.0.1',
      '169.254.169.254',
      '100.64.1.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::5',
      '::ffff:127.0.0.1',
      '::ffff:a00:1',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true)
    }
    for (const address of ['93.184.216.34', '2a00:1450:4010:c05::65', '::ffff:93.184.216.34']) {
      expect(isForbiddenAddress(address), address).toBe(false)
    }
    const outbound = new Outbound()
    for (const url of ['http://127.0.0.1:9/', 'http://[::1]:9/', 'http://localhost:9/']) {
      const error = await outbound
        .send({ method: 'GET', url, timeoutMs: 2_000 })
        .catch((e: unknown) => e)
      expect(error, url).toBeInstanceOf(OutboundError)
      expect((error as OutboundError).reason, url).toBe('forbidden_address')
      expect((error as OutboundError).sent).toBe(false)
    }
  })

  it('sends every call to the test origin as /{host}{path} when one is set', () => {
    const outbound = new Outbound({ testOrigin: 'http://127.0.0.1:4567' })
    expect(outbound.target('https://clinic.amocrm.ru/api/v4/leads/complex').href).toBe(
      'http://127.0.0.1:4567/clinic.amocrm.ru/api/v4/leads/complex',
    )
    expect(outbound.target('https://clinic.amocrm.ru/api/v4/leads?query=pb-1-x').href).toBe(
      'http://127.0.0.1:4567/clinic.amocrm.ru/api/v4/leads?query=pb-1-x',
    )
  })
})

describe('requests: amoCRM by OAuth', () => {
  let world: RequestsWorld
  let amo: Awaited<ReturnType<typeof addAmo>>

  beforeAll(async () => {
    world = await requestsWorld()
    amo = await addAmo(world, 'oauth', false)
  })
  afterAll(async () => {
    await world.close()
  })

  const call = (
    method: string,
    path: string,
    options: Parameters<RequestsWorld['server']['call']>[2] = {},
  ) => world.server.call(method, path, { token: world.user.token, ...options })
  const state = async () =>
    v.parse(
      v.array(IntegrationState),
      await json(
        await call('GET', '/api/integration/state', {
          query: { workspace_id: world.user.workspaceId },
        }),
      ),
    )[0]!
  const connect = async () => {
    const { url } = await json<{ url: string }>(
      await call('POST', '/api/amo/connect', { body: { id: amo.id } }),
    )
    const consent = new URL(url)
    expect(consent.origin + consent.pathname).toBe('https://www.amocrm.ru/oauth')
    expect(consent.searchParams.get('client_id')).toBe(amo.account.clientId)
    const stateParam = consent.searchParams.get('state')!
    const res = await world.server.call('GET', '/api/amo/oauth/callback', {
      query: {
        code: world.fake.amoCode(amo.account),
        state: stateParam,
        referer: 'oauth.amocrm.ru',
      },
    })
    return { res, state: stateParam }
  }
  const leadsOf = (id: number) => amo.account.leads.filter((l) => l.name.includes(`pb-${id}-`))

  it('waits while not connected, connects through the consent page, then delivers', async () => {
    expect((await state()).state).toBe('not_connected')
    expect((await state()).message).toBe('Требуется подключение')
    const { id } = await world.services.appeals.submit(submission(world))
    // Two rounds of the queue pass it by: nothing reaches amoCRM.
    for (let round = 0; round < 2; round++) await once(world.services.deliveries.events, 'round')
    expect(world.fake.log.filter((c) => c.service === 'amo')).toEqual([])
    const { res, state: used } = await connect()
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe(`/integrations/amo/${amo.id}?amo_oauth=connected`)
    await allSettled(world)
    expect(leadsOf(id)).toHaveLength(1)
    expect((await state()).state).toBe('connected')
    const again = await world.server.call('GET', '/api/amo/oauth/callback', {
      query: { code: world.fake.amoCode(amo.account), state: used, referer: 'oauth.amocrm.ru' },
    })
    expect(again.status).toBe(303)
    expect(again.headers.get('Location')).toBe('/integrations/amo?amo_oauth=bad_state')
    const malformed = await world.server.call('GET', '/api/amo/oauth/callback', {
      query: { code: 'код', state: used },
    })
    expect(malformed.status).toBe(422)
    // The tokens are nowhere in what the API answers.
    const { rows } = await world.services.db.query<{ access_token: string }>(
      'SELECT access_token FROM amo_auth WHERE integration_id = $1',
      [amo.id],
    )
    const answered = JSON.stringify(
      await json(await call('GET', '/api/amo/get', { query: { id: amo.id } })),
    )
    expect(answered).not.toContain(rows[0]!.access_token)
  })

  it('refreshes once on a 401, for every delivery waiting on it, and the refresh token rotates', async () => {
    world.fake.expireAmoAccess(amo.account)
    const spent = amo.account.spent.size
    const ids = await Promise.all(
      [1, 2, 3, 4, 5].map(async () => (await world.services.appeals.submit(submission(world))).id),
    )
    await allSettled(world)
    for (const id of ids) expect(leadsOf(id)).toHaveLength(1)
    expect(amo.account.spent.size).toBe(spent + 1)
    expect(world.fake.log.filter((c) => c.outcome === '401').length).toBeGreaterThanOrEqual(1)
  })

  it('refreshes before the token expires, without a 401', async () => {
    await world.services.db.query(
      `UPDATE amo_auth SET expires_at = now() + interval '1 minute' WHERE integration_id = $1`,
      [amo.id],
    )
    const before = world.fake.log.length
    const { id } = await world.services.appeals.submit(submission(world))
    await allSettled(world)
    const calls = world.fake.log.slice(before)
    expect(calls.map((c) => [c.action, c.outcome])).toEqual([
      ['oauth', 'ok'],
      ['lead.add', 'ok'],
    ])
    expect(leadsOf(id)).toHaveLength(1)
  })

  it('a refused refresh asks for a new connection, the deliveries wait, and go once reconnected', async () => {
    amo.account.refresh.clear()
    world.fake.expireAmoAccess(amo.account)
    const { id } = await world.services.appeals.submit(submission(world))
    await waitUntil(
      async () => (await state()).state === 'reconnect',
      [world.services.deliveries.events],
      20_000,
      'reconnect',
    )
    expect((await state()).message).toBe('Требуется повторное подключение')
    const waiting = v.parse(
      Appeal,
      await json(await call('GET', '/api/appeal/get', { query: { id } })),
    )
    expect(waiting.deliveries[0]).toMatchObject({
      state: 'queued',
      attempts: 0,
      last_error: 'Требуется повторное подключение amoCRM',
    })
    expect(await json(await call('POST', '/api/amo/check', { body: { id: amo.id } }))).toEqual({
      ok: false,
      message: 'Требуется повторное подключение amoCRM',
    })
    const { res } = await connect()
    expect(res.status).toBe(303)
    await allSettled(world)
    expect(leadsOf(id)).toHaveLength(1)
    expect((await state()).state).toBe('connected')
  })
})
