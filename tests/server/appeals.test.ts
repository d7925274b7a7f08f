import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Appeal } from '../../src/domain/appeal.ts'
import {
  addAmo,
  addBitrix,
  allSettled,
  requestsWorld,
  submission,
  type RequestsWorld,
} from './appeals-support.ts'

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
})
