import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  addAmo,
  addBitrix,
  allSettled,
  requestsWorld,
  submission,
  type RequestsWorld,
} from './appeals-support.ts'

/**
 * The vendors' rates with the queue's own defaults (docs/crm.md, "Rates"): the fake counts as
 * amoCRM (7 calls in any second) and Bitrix24 (a bucket of 50 draining 2 a second) do, and a
 * burst of requests goes through without a single refusal for rate. (`npm run bench requests`
 * sends 500.)
 */
let world: RequestsWorld

beforeAll(async () => {
  world = await requestsWorld(
    {},
    // The vendors' documented limits.
    { amoPerSecond: 7, bitrixDrainPerSecond: 2, bitrixLimit: 50 },
    // Only the test origin and a short poll: rates, timeouts and backoff are the defaults.
    (fake) => ({ testOrigin: fake.origin, pollMs: 25 }),
  )
})
afterAll(async () => {
  await world?.close()
})

it('sends 60 requests at once to amoCRM and Bitrix24 without one refusal for rate', async () => {
  await addAmo(world, 'rates')
  await addBitrix(world, 'rates.bitrix24.ru')
  const started = Date.now()
  await Promise.all(
    Array.from({ length: 60 }, () => world.services.appeals.submit(submission(world))),
  )
  await allSettled(world, [], 60_000)
  const seconds = (Date.now() - started) / 1000
  expect(world.fake.rateRefusals).toBe(0)
  expect(world.fake.amo.get('rates.amocrm.ru')!.leads).toHaveLength(60)
  expect(world.fake.bitrix.get('rates.bitrix24.ru')!.leads).toHaveLength(60)
  // 60 calls at 6 a second take some 10 s; Bitrix24's 40 at once and 20 at 2 a second as long.
  expect(seconds).toBeGreaterThan(9)
}, 60_000)
