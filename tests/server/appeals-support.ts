import { randomBytes } from 'node:crypto'
import type { EventEmitter } from 'node:events'
import type { AppOptions } from '../../server/app.ts'
import type { Submission } from '../../server/services/appeals.ts'
import type { Services } from '../../server/services/services.ts'
import { FakeCrm, waitUntil } from '../support/fake-crm.ts'
import { json, testServer, type TestServer, type TestUser } from './helpers.ts'

/**
 * What the requests' tests share: a server whose outbound calls go to a fake amoCRM and Bitrix24
 * (OUTBOUND_TEST_ORIGIN), with timeouts and backoff short enough for tests, and a workspace with a
 * project.
 */

/** Delivery settings for tests: short timeouts and backoff, rates the fake allows quickly. */
export function fastDelivery(
  fake: FakeCrm,
  extra: AppOptions['delivery'] = {},
): AppOptions['delivery'] {
  return {
    testOrigin: fake.origin,
    timeoutMs: 400,
    leaseMs: 3_000,
    pollMs: 25,
    backoff: { baseMs: 20, capMs: 200 },
    giveUpMs: 60_000,
    rates: {
      amo: { perSecond: 60, burst: 1 },
      bitrix: { perSecond: 60, burst: 20 },
      hook: { perSecond: 200, burst: 50 },
    },
    ...extra,
  }
}

export interface RequestsWorld {
  fake: FakeCrm
  server: TestServer
  services: Services
  user: TestUser
  projectId: number
  close(): Promise<void>
}

export async function requestsWorld(
  options: AppOptions = {},
  fakeOptions: ConstructorParameters<typeof FakeCrm>[0] = {
    amoPerSecond: 70,
    bitrixDrainPerSecond: 70,
  },
  /** The queue's settings, given the fake's origin (default fastDelivery). */
  deliveryFor?: (fake: FakeCrm) => AppOptions['delivery'],
): Promise<RequestsWorld> {
  const fake = await new FakeCrm(fakeOptions).start()
  const delivery = deliveryFor ? deliveryFor(fake) : fastDelivery(fake)
  const server = await testServer({ delivery, ...options })
  const { services } = await server.app.ready()
  const user = await server.signUp()
  const res = await server.call('POST', '/api/project/add', {
    token: user.token,
    body: { workspace_id: user.workspaceId, name: 'Акция на чистку зубов' },
  })
  const project = await json<{ id: number }>(res)
  return {
    fake,
    server,
    services,
    user,
    projectId: project.id,
    async close() {
      await server.close()
      await fake.close()
    },
  }
}

export function submission(
  world: Pick<RequestsWorld, 'user' | 'projectId'>,
  extra: Partial<Submission> = {},
): Submission {
  return {
    workspace_id: world.user.workspaceId,
    project_id: world.projectId,
    block_id: 7,
    kind: 'subscribe',
    name: 'Мария Петрова',
    phone: '+79123456789',
    email: 'maria@example.ru',
    comment: 'Лучше после обеда',
    specialist_id: null,
    date: '2030-05-01',
    price: null,
    utm: { utm_source: 'vk', utm_campaign: 'spring' },
    referrer: 'https://vk.com/',
    page_url: 'https://promo.example.ru/p/akciya',
    project_name: 'Акция на чистку зубов',
    submission_id: randomBytes(8).toString('hex'),
    ip: '203.0.113.7',
    user_agent: 'Mozilla/5.0',
    spam: false,
    hook_url: '',
    ...extra,
  }
}

/** Adds an amoCRM integration with a long-lived token of `account` and returns its id. */
export async function addAmo(
  world: RequestsWorld,
  subdomain: string,
  withToken = true,
): Promise<{ id: number; account: ReturnType<FakeCrm['addAmo']> }> {
  const account = world.fake.addAmo(subdomain)
  const res = await world.server.call('POST', '/api/amo/add', {
    token: world.user.token,
    body: {
      workspace_id: world.user.workspaceId,
      name: `amo ${subdomain}`,
      subdomain,
      client_id: account.clientId,
      client_secret: account.clientSecret,
      redirect_uri: account.redirectUri,
      ...(withToken ? { long_lived_token: world.fake.amoLongLivedToken(account) } : {}),
    },
  })
  if (res.status !== 200) throw new Error(`amo/add ${res.status} ${await res.text()}`)
  return { id: (await json<{ id: number }>(res)).id, account }
}

export async function addBitrix(
  world: RequestsWorld,
  host: string,
  enabled = true,
): Promise<{ id: number; portal: ReturnType<FakeCrm['addBitrix']> }> {
  const portal = world.fake.addBitrix(host)
  const res = await world.server.call('POST', '/api/bitrix/add', {
    token: world.user.token,
    body: {
      workspace_id: world.user.workspaceId,
      name: `Битрикс ${host}`,
      portal_url: `https://${host}`,
      webhook_url: portal.webhook,
      enabled,
    },
  })
  if (res.status !== 200) throw new Error(`bitrix/add ${res.status} ${await res.text()}`)
  return { id: (await json<{ id: number }>(res)).id, portal }
}

/** The deliveries of the workspace's requests, straight from the database. */
export async function deliveryStates(
  services: Services,
): Promise<{ appeal_id: number; state: string }[]> {
  const { rows } = await services.db.query<{ appeal_id: number; state: string }>(
    'SELECT appeal_id, state FROM appeal_deliveries ORDER BY id',
  )
  return rows
}

/** Resolves when no delivery is queued any more, woken by the queue and the fake. */
export function allSettled(
  world: { services: Services; fake: FakeCrm },
  extra: EventEmitter[] = [],
  timeoutMs = 30_000,
): Promise<void> {
  return waitUntil(
    async () => (await deliveryStates(world.services)).every((d) => d.state !== 'queued'),
    [world.services.deliveries.events, world.fake.events, ...extra],
    timeoutMs,
    'every delivery to end',
  )
}
