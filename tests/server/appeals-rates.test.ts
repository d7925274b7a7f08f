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
    // Only the test origin and a short poll: rates, timeouts and backoff are the defaults. The
    // queue starts once every request is in: the fake shares this process, and a burst of
    // submits held up its event loop enough to bunch the calls it saw (not the calls sent).
    (fake) => ({ testOrigin: fake.origin, pollMs: 25, enabled: false }),
  )
})
afterAll(async () => {
  await world?.close()
})

it('sends 60 requests at once to amoCRM and Bitrix24 without one refusal for rate', async () => {
  await addAmo(world, 'rates')
  await addBitrix(world, 'rates.bitrix24.ru')
  await Promise.all(
    Array.from({ length: 60 }, () => world.services.appeals.submit(submission(world))),
  )
  const started = Date.now()
  world.services.deliveries.start()
  await allSettled(world, [], 60_000)
  const seconds = (Date.now() - started) / 1000
  const refused = world.fake.log.filter((c) => c.outcome === 'rate-refused')
  if (refused.length) {
    const amo = world.fake.log.filter((c) => c.service === 'amo')
    console.log(
      amo
        .map((c, i) => `${i ? c.at - amo[i - 1]!.at : 0}${c.outcome === 'ok' ? '' : '!'}`)
        .join(' '),
    )
  }
  expect(refused.map((c) => `${c.service} ${c.action}`)).toEqual([])
  expect(world.fake.rateRefusals).toBe(0)
  expect(world.fake.amo.get('rates.amocrm.ru')!.leads).toHaveLength(60)
  expect(world.fake.bitrix.get('rates.bitrix24.ru')!.leads).toHaveLength(60)
  // 60 calls at 5 a second take some 12 s; Bitrix24's 40 at once and 20 at 2 a second some 10 s.
  expect(seconds).toBeGreaterThan(11)
}, 60_000)
