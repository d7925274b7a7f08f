import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, expect, it } from 'vitest'
import { createApp, type ApiApp, type AppOptions } from '../../server/app.ts'
import { openDatabase, type Database } from '../../server/db/database.ts'
import type { Submission } from '../../server/services/appeals.ts'
import type { DeliveryStep } from '../../server/services/delivery.ts'
import type { Services } from '../../server/services/services.ts'
import { FakeCrm, waitUntil, type Fault } from '../support/fake-crm.ts'
import { seededRandom } from '../support/random.ts'
import { fastDelivery, submission } from './appeals-support.ts'

/**
 * The oracle (docs/crm.md, "How it is tested"): random submissions — repeats, some at once, spam, malformed
 * ones, and answers lost to a crash after the request was written, sent again by their visitor —
 * against the fake amoCRM and Bitrix24 answering with faults (unanswered calls after the lead was
 * stored, cut connections, 429 and QUERY_LIMIT_EXCEEDED, 503, 500, hangs past the timeout), while
 * the delivery workers are killed as by kill -9 (one after a CRM answered and before it was
 * written, one between a claim and its call), restarted, and run two at once. At the end every
 * accepted request is exactly one lead in each enabled CRM, spam none, and a disabled integration
 * got nothing. ORACLE_SEED replays a run.
 *
 * A planted bug makes it fail (tests/support/planted/README.md): a resend without the look-up
 * (two leads for a request), or the deliveries written apart from the request, not in its
 * transaction (a request with no lead).
 */

const SEED = Number(process.env.ORACLE_SEED ?? 2028)
const random = seededRandom(SEED)
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!

const databaseUrl = process.env.DATABASE_URL
const schema = databaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined
let db: Database
const instances: ApiApp[] = []
let fake: FakeCrm

afterAll(async () => {
  for (const app of instances) await app.close().catch(() => undefined)
  await fake?.close()
  await db?.close()
  if (databaseUrl && schema) {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await client.end()
  }
})

/** A server instance over the shared database (on PostgreSQL with a pool of its own). */
async function instance(options: AppOptions): Promise<{ app: ApiApp; services: Services }> {
  const app = createApp(
    databaseUrl
      ? { dataDir: 'memory', databaseUrl, schema, ...options }
      : { dataDir: 'memory', db, ...options },
  )
  instances.push(app)
  const { services } = await app.ready()
  return { app, services }
}

/** A worker that dies (kill) at the `count`-th time one of its deliveries reaches `step`. */
function killer(step: DeliveryStep, count: number) {
  let seen = 0
  let services: Services | undefined
  let fired!: () => void
  const killed = new Promise<void>((resolve) => (fired = resolve))
  return {
    killed,
    attach(s: Services) {
      services = s
    },
    onStep(at: DeliveryStep) {
      if (at !== step || !services || ++seen !== count) return
      services.deliveries.kill()
      fired()
    },
  }
}

/** The fake's faults: a third of the calls go wrong, in every way the issue names. */
const FAULTS: [number, Fault][] = [
  [0.07, 'store-then-hang'],
  [0.04, 'store-then-reset'],
  [0.04, 'store-then-500'],
  [0.04, 'reset'],
  [0.03, 'hang'],
  [0.04, { status: 503 }],
  [0.04, { status: 500 }],
  [0.04, 'rate'],
]
function randomFault(): Fault {
  let r = random()
  for (const [p, fault] of FAULTS) {
    if (r < p) return fault
    r -= p
  }
  return 'ok'
}

it('every accepted request is exactly one lead in each enabled CRM, through faults, kills and restarts', async () => {
  fake = await new FakeCrm({ amoPerSecond: 400, bitrixDrainPerSecond: 400 }).start()
  if (databaseUrl) {
    const admin = new pg.Client({ connectionString: databaseUrl })
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    await admin.end()
    db = await openDatabase({ databaseUrl, schema })
  } else {
    db = await openDatabase({ dataDir: 'memory' })
  }
  const delivery = (onStep?: (step: DeliveryStep) => void) =>
    fastDelivery(fake, {
      timeoutMs: 300,
      leaseMs: 1_500,
      giveUpMs: 600_000,
      random,
      concurrency: 6,
      onStep: onStep && ((step) => onStep(step)),
    })

  // The front takes the visitors' requests; its queue is off, the workers deliver. A tenth of
  // its answers are lost: it dies once the request is written, before the visitor hears back.
  let crashes = 0
  let written = 0
  const front = await instance({
    delivery: { ...delivery(), enabled: false },
    appeals: {
      onStep: () => {
        if (++written === 2 || random() < 0.1) {
          crashes++
          throw new Error('the process died before answering')
        }
      },
    },
  })
  const call = (method: string, path: string, token: string, body?: unknown) =>
    Promise.resolve(
      front.app.request(path, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    )
  const register = await front.app.request('/api/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Оракул',
      email: `oracle.${SEED}@example.ru`,
      password: 'password123',
    }),
  })
  const { access_token: token } = (await register.json()) as { access_token: string }
  const [workspace] = (await (await call('GET', '/api/workspace/list', token)).json()) as {
    id: number
  }[]
  const project = (await (
    await call('POST', '/api/project/add', token, { workspace_id: workspace!.id, name: 'Оракул' })
  ).json()) as { id: number }
  const world = { user: { workspaceId: workspace!.id }, projectId: project.id } as Parameters<
    typeof submission
  >[0]

  // amoCRM by OAuth, one Bitrix24 portal enabled and one disabled.
  const account = fake.addAmo('oracle')
  const amo = (await (
    await call('POST', '/api/amo/add', token, {
      workspace_id: workspace!.id,
      name: 'amo',
      subdomain: 'oracle',
      client_id: account.clientId,
      client_secret: account.clientSecret,
      redirect_uri: account.redirectUri,
    })
  ).json()) as { id: number }
  const { url } = (await (
    await call('POST', '/api/amo/connect', token, { id: amo.id })
  ).json()) as { url: string }
  const connected = await front.app.request(
    `/api/amo/oauth/callback?${new URLSearchParams({
      code: fake.amoCode(account),
      state: new URL(url).searchParams.get('state')!,
      referer: 'oracle.amocrm.ru',
    })}`,
  )
  expect(connected.status).toBe(303)
  const portal = fake.addBitrix('oracle.bitrix24.ru')
  const off = fake.addBitrix('off.bitrix24.ru')
  for (const [p, enabled] of [
    [portal, true],
    [off, false],
  ] as const) {
    const res = await call('POST', '/api/bitrix/add', token, {
      workspace_id: workspace!.id,
      name: p.host,
      portal_url: `https://${p.host}`,
      webhook_url: p.webhook,
      enabled,
    })
    expect(res.status).toBe(200)
  }
  // The first leads meet every fault once, so that each run goes through all of them; then
  // chance decides.
  const scripted = FAULTS.map(([, fault]) => fault)
  fake.fault = (c) =>
    c.action === 'lead.add' && scripted.length > 0 ? scripted.shift()! : randomFault()

  // What the visitors sent, and what the server said.
  const accepted = new Map<string, { submission: Submission; id: number }>()
  const sent: Submission[] = []
  let rejected = 0
  /** A visitor sends until the server answers (a crash before the answer is a 500 to them). */
  const send = async (s: Submission): Promise<void> => {
    for (let tries = 0; ; tries++) {
      try {
        const result = await front.services.appeals.submit(s)
        const known = accepted.get(s.submission_id)
        if (known) expect(result.id).toBe(known.id)
        else accepted.set(s.submission_id, { submission: s, id: result.id })
        return
      } catch (error) {
        if ((error as { status?: number }).status === 422) {
          rejected++
          return
        }
        if (tries > 20) throw error
      }
    }
  }
  const batch = async (count: number) => {
    const work: Promise<void>[] = []
    for (let i = 0; i < count; i++) {
      const r = random()
      if (r < 0.2 && sent.length > 0) {
        // A repeat of an earlier form, sometimes twice at once.
        const again = pick(sent)
        work.push(send(again))
        if (random() < 0.5) work.push(send(again))
        continue
      }
      const kind = pick(['gift', 'price', 'subscribe'] as const)
      const s = submission(world, {
        kind,
        spam: random() < 0.15,
        price: kind === 'price' ? Math.round(random() * 10_000) : null,
        hook_url: kind === 'gift' && random() < 0.5 ? 'https://hooks.oracle.example/in' : '',
        phone:
          random() < 0.1
            ? '8 912 345'
            : `+79${String(Math.floor(random() * 1e9)).padStart(9, '0')}`,
        name: `Посетитель ${sent.length + 1}`,
      })
      sent.push(s)
      work.push(send(s))
      if (work.length >= 5) await Promise.all(work.splice(0))
    }
    await Promise.all(work)
  }

  // Worker 1 dies after a CRM answered, before the answer was written.
  const k1 = killer('answered', 4)
  const w1 = await instance({ delivery: delivery((step) => k1.onStep(step)) })
  k1.attach(w1.services)
  await batch(20)
  await k1.killed

  // Worker 2 dies between a claim and its call.
  const k2 = killer('calling', 5)
  const w2 = await instance({ delivery: delivery((step) => k2.onStep(step)) })
  k2.attach(w2.services)
  await batch(20)
  await k2.killed

  // Two workers at once; one is restarted gracefully in the middle.
  const w3 = await instance({ delivery: delivery() })
  const w4 = await instance({ delivery: delivery() })
  await batch(15)
  await w3.app.close()
  const w5 = await instance({ delivery: delivery() })
  await batch(15)

  // Every delivery ends (the dead workers' claims come back once their leases are over).
  await waitUntil(
    async () => {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM appeal_deliveries WHERE state = 'queued'`,
      )
      return rows[0]!.n === 0
    },
    [w4.services.deliveries.events, w5.services.deliveries.events, fake.events],
    90_000,
    'every delivery to end',
  )

  // The oracle.
  const { rows: appeals } = await db.query<{
    id: number
    submission_id: string
    crm_key: string
    status: string
  }>('SELECT id, submission_id, crm_key, status FROM appeals ORDER BY id')
  expect(appeals.length).toBe(accepted.size)
  const { rows: states } = await db.query<{
    appeal_id: number
    integration_kind: string
    state: string
  }>('SELECT appeal_id, integration_kind, state FROM appeal_deliveries')
  const amoLeads = account.leads
  const bitrixLeads = fake.bitrix.get(portal.host)!.leads
  let live = 0
  for (const appeal of appeals) {
    const visitor = accepted.get(appeal.submission_id)
    expect(visitor?.id, `request ${appeal.id} was accepted`).toBe(appeal.id)
    const inAmo = amoLeads.filter((l) => l.name.includes(`[${appeal.crm_key}]`)).length
    const inBitrix = bitrixLeads.filter((l) => l.fields.ORIGIN_ID === appeal.crm_key).length
    const mine = states.filter((d) => d.appeal_id === appeal.id)
    if (visitor!.submission.spam) {
      expect([inAmo, inBitrix], `spam ${appeal.id} in amoCRM, Bitrix24`).toEqual([0, 0])
      expect(mine.every((d) => d.state === 'skipped')).toBe(true)
      continue
    }
    live++
    expect([inAmo, inBitrix], `request ${appeal.id} in amoCRM, Bitrix24`).toEqual([1, 1])
    expect(mine.map((d) => d.state)).toEqual(mine.map(() => 'delivered'))
    if (visitor!.submission.hook_url) {
      expect(fake.hooks.some((h) => (JSON.parse(h.body) as { id: number }).id === appeal.id)).toBe(
        true,
      )
    }
  }
  expect(amoLeads.length).toBe(live)
  expect(bitrixLeads.length).toBe(live)
  expect(fake.bitrix.get(off.host)!.leads).toHaveLength(0)
  // The run did go through what it claims to.
  expect(rejected).toBeGreaterThan(0)
  expect(crashes).toBeGreaterThan(0)
  expect(accepted.size).toBeLessThan(sent.length)
  const outcomes = new Set(fake.log.map((c) => c.outcome))
  for (const fault of [
    'store-then-hang',
    'store-then-reset',
    'hang',
    'reset',
    '503',
    '500',
    'rate',
  ]) {
    expect(outcomes, fault).toContain(fault)
  }
  console.log(
    `oracle seed ${SEED}: ${accepted.size} accepted (${live} delivered, ${accepted.size - live} spam), ` +
      `${rejected} refused, ${crashes} answers lost to a crash, ${fake.log.length} CRM calls`,
  )
}, 150_000)
