import { appendFileSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { addBackground } from '../../src/sync/mutators/backgrounds.ts'
import { saveBlocks } from '../../src/sync/mutators/blocks.ts'
import { copyProject, createProject } from '../../src/sync/mutators/projects.ts'
import { createRecord, deleteRecord, setRecordEnabled } from '../../src/sync/mutators/records.ts'
import { faultOnce } from '../support/fault-proxy.ts'
import { pngImage } from '../server/helpers.ts'
import { createSyncEngine } from '../../src/sync/engine.ts'
import {
  compareWithMirror,
  newBlock,
  runScenario,
  soakProblems,
} from '../support/convergence-scenario.ts'
import {
  startRestartableServer,
  startSyncWorld,
  type RestartableServer,
  type SyncWorld,
} from '../support/sync-world.ts'

// The same password checked against the same salt at every sign-in: computed once per process.
vi.mock('node:crypto', async (importOriginal) =>
  (await import('../support/remembered-scrypt.ts')).withRememberedScrypt(await importOriginal()),
)

/**
 * Convergence under faults: seeded random scenarios through the fault proxy, then drain
 * and compare the server with the mirror. CI runs the fixed seeds below and one seed of its own
 * each run (10,000–999,999, in the test's name), so the suite explores beyond the seeds it was
 * tuned on; `SEED=1234` runs one seed again, `SOAK_SEEDS=200` (npm run soak) runs that many seeds
 * starting at `SOAK_FROM` (default 1).
 */
const FIXED_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8]
const STEPS = Number(process.env.STEPS ?? 80)
const RUN_SEED = 10_000 + Math.floor(Math.random() * 990_000)

function seeds(): number[] {
  if (process.env.SEED) return [Number(process.env.SEED)]
  if (process.env.SOAK_SEEDS) {
    const from = Number(process.env.SOAK_FROM ?? 1)
    return Array.from({ length: Number(process.env.SOAK_SEEDS) }, (_, i) => from + i)
  }
  return [...FIXED_SEEDS, RUN_SEED]
}
const fixedOnly = !process.env.SEED && !process.env.SOAK_SEEDS

const covered = new Set<string>()

/** What one seed exercised: the paths it sent, the faults that fired, the events of its story. */
function coverageOf(world: SyncWorld, log: string[]): Set<string> {
  const covered = new Set<string>(world.traffic.paths)
  for (const [fault, count] of Object.entries(world.proxy.stats)) if (count > 0) covered.add(fault)
  let lost = false
  for (const line of log) {
    const decided =
      /^conflict on .* (record|block): (kept mine|took the server’s|left undecided)$/.exec(line)
    if (decided) covered.add(`${decided[1]} conflict`).add(`conflict: ${decided[2]}`)
    if (line.startsWith('another device wrote') && lost) covered.add('conflict on a sent change')
    lost = / was sent and lost$/.test(line)
    if (line.endsWith(': killed')) covered.add('killed mid-call')
    if (line.includes('revoked token') && line.includes('→ signin')) covered.add('401')
    if (line.includes('expired token → signin')) covered.add('expired')
    if (line.startsWith('two workers at once')) covered.add('two workers')
    if (line.startsWith('another device')) covered.add('another device')
    if (/^reject-\d+ on .* parked/.test(line)) covered.add(line.slice(0, 10))
    if (line.startsWith('retried the refused')) covered.add('retried')
    if (line.startsWith('discarded the refused create')) covered.add('discarded create')
    if (line.startsWith('discarded the refused update')) covered.add('discarded update')
    if (line.startsWith('server restarted')) covered.add('restart')
    if (line === 'session expired mid-chain → signin') covered.add('expired mid-chain')
    if (/^signed in again through faults \([2-9]/.test(line)) covered.add('sign-in retried')
    if (line === 'check_auth under faults → allow (offline)') covered.add('check_auth fault')
  }
  return covered
}
let world: SyncWorld | null = null
// One server for the whole file (it takes seconds to start); every scenario is a new user on it.
// It keeps its data in a directory, so a scenario can restart it mid-chain. On a shared machine at a
// load average of 17 to 20 it took 31 to 47 s to start, over a minute at 20 to 30: it gets three.
let server: RestartableServer
beforeAll(async () => {
  server = await startRestartableServer()
}, 180_000)
afterAll(async () => {
  await server.close()
})
afterEach(async () => {
  await world?.close()
  world = null
})

describe('convergence under faults', () => {
  it.each(seeds())(
    'seed %i: after draining, the server and the mirror hold what the person meant',
    async (seed) => {
      const cpu = process.cpuUsage()
      const clock = [performance.now()]
      const lap = () => clock.push(performance.now())
      world = await startSyncWorld({ server })
      lap()
      const report = await runScenario(seed, world, { steps: STEPS })
      lap()
      // What the person meant, against the server and against the mirror, field by field.
      const problems = await soakProblems(world, report, lap)
      const story = report.log.slice(process.env.SEED ? 0 : -40).join('\n  ')
      expect(
        problems,
        `seed ${seed} did not converge (replay: SEED=${seed} npx vitest run tests/integration/convergence.test.ts)\n` +
          `${problems.slice(0, 30).join('\n')}\n-- last steps:\n  ${story}`,
      ).toEqual([])
      // What this seed exercised, for the coverage check over the fixed seeds.
      const exercised = coverageOf(world, report.log)
      if (FIXED_SEEDS.includes(seed)) for (const item of exercised) covered.add(item)
      if (process.env.SOAK_REPORT) {
        // One line per seed for scripts/soak.mjs: where its time went and what it exercised.
        const [start, scenario, drained, compared] = clock.slice(1).map((t, i) => t - clock[i]!)
        const used = process.cpuUsage(cpu)
        const line = {
          seed,
          ms: {
            start,
            scenario,
            restart: world.spent.restart,
            signIn: world.spent.signIn,
            drain: drained,
            compare: compared,
          },
          cpuMs: (used.user + used.system) / 1000,
          requests: world.traffic.sent,
          faults: world.proxy.stats,
          exercised: [...exercised],
        }
        appendFileSync(process.env.SOAK_REPORT, `${JSON.stringify(line)}\n`)
      }
      if (process.env.VERBOSE) {
        const stats = JSON.stringify(world.proxy.stats)
        process.stderr.write(`seed ${seed} ${stats}\n${report.log.join('\n')}\n`)
      }
    },
    // A seed takes 1 to 2 s of CPU; a loaded machine stretches it to 15 to 30 s.
    120_000,
  )

  if (fixedOnly) {
    it('the fixed seeds reach every record kind, block type and fault', () => {
      const wanted = [
        ...['amo', 'bitrix', 'department', 'location', 'specialist'].map((k) => `/api/${k}/add`),
        ...['text', 'button', 'image', 'video', 'gift', 'price', 'subscribe'].map(
          (type) => `/api/${type}/add`,
        ),
        '/api/project/add_bg',
        '/api/image/upload',
        '/api/project/get_items',
        ...['drop-request', 'drop-response', 'delay', 'status-500', 'status-502', 'status-429'],
        ...['duplicate', 'hang', 'html-200', 'truncated', 'wrong-type'],
        ...['offline', 'killed mid-call', '401', 'expired', 'two workers', 'another device'],
        ...['stale-duplicate', 'stale-redelivered', 'reject-404', 'reject-409', 'reject-422'],
        ...['retried', 'discarded create', 'discarded update', 'restart', 'expired mid-chain'],
        ...['sign-in retried', 'check_auth fault', 'record conflict', 'block conflict'],
        ...['conflict: kept mine', 'conflict: took the server’s', 'conflict: left undecided'],
        'conflict on a sent change',
      ]
      expect(wanted.filter((item) => !covered.has(item))).toEqual([])
    })
  }

  it('a specialist answered before the delete of its location replays keeps the location cleared', async () => {
    world = await startSyncWorld({ server })
    const add = async (kind: string, body: Record<string, unknown>) =>
      (await (
        await world!.call('POST', `/api/${kind}/add`, { workspace_id: world!.workspaceId, ...body })
      ).json()) as { id: number }
    const location = await add('location', { name: 'Центр', address: '', phone: '' })
    const specialist = await add('specialist', {
      name: 'Анна',
      position: '',
      department_id: null,
      location_id: location.id,
      phone: '',
      email: '',
      photo_url: '',
      description: '',
    })
    const { engine } = world.startWorker('tab')
    await engine.refresh({ kind: 'workspaces' })
    await engine.refresh({ kind: 'location', workspaceId: world.workspaceId })
    await engine.refresh({ kind: 'specialist', workspaceId: world.workspaceId })
    // Offline: the specialist is disabled, then his location deleted; both replay in that order.
    await setRecordEnabled('specialist', specialist.id, false)
    await deleteRecord('location', location.id)
    expect((await world.db.specialist.get(specialist.id))?.location_id).toBeNull()
    expect(await engine.replay()).toBe('idle')
    expect(await world.db.specialist.get(specialist.id)).toMatchObject({
      enabled: false,
      location_id: null,
    })
    expect(await compareWithMirror(world)).toEqual([])
  })

  // Found by the soak (SOAK_SEEDS=100, seed 28). A copy is a barrier (docs/SYNC.md
  // "The replay protocol", step 3): the server copies the project as it holds it when the copy
  // runs. Here a subscribe block's save waits on its specialist, whose department's create was
  // refused and parked; the pass goes on past the waiting save and sends the copy, so the copy
  // never gets the block, although the person copied the project with the block on screen. Fixed in
  // src/sync/engine.ts: the copy waits while an earlier entry of its project waits.
  it('a copy queued after a block save that waits on a refused create copies the block once it is retried', async () => {
    world = await startSyncWorld({ server })
    const ws = world.workspaceId
    const department = await createRecord('department', ws, { name: 'Отказ', description: '' })
    const specialist = await createRecord('specialist', ws, {
      name: 'Врач',
      position: '',
      department_id: department,
      location_id: null,
      phone: '',
      email: '',
      photo_url: '',
      description: '',
    })
    const project = await createProject(ws, 'Проект с записью')
    const png = new Blob([new Uint8Array(pngImage(12, 10))], { type: 'image/png' })
    const bg = await addBackground(project, png, { width: 12, height: 10 })
    await saveBlocks([newBlock('subscribe', bg, 1, { specialistId: specialist })])
    const copy = await copyProject(project)
    const { engine } = world.startWorker('tab')
    world.proxy.setPolicy(
      faultOnce(
        'reject-422',
        (r) => r.path === '/api/department/add',
        () => 'pass',
      ),
    )
    await engine.replay()
    const parked = await world.db.outbox.filter((e) => e.state === 'parked').toArray()
    expect(parked.map((e) => `${e.op} ${e.table}`)).toEqual(['create department'])
    // «Повторить»: everything goes through now.
    await engine.retryEntry(parked[0]!.seq!)
    expect(await engine.replay()).toBe('idle')
    expect(await world.db.outbox.count()).toBe(0)
    // The copy's row keeps the key it was born with (its local id) under its server id.
    const copyId = (await world.db.projects.where('ck').equals(String(copy)).first())!.id
    const full = (await (
      await world.call('GET', '/api/project/get', undefined, { project_id: copyId })
    ).json()) as { backgrounds: { id: number }[] }
    const items = (await (
      await world.call('GET', '/api/project/get_items', undefined, {
        bg_id: full.backgrounds[0]!.id,
      })
    ).json()) as { type: string }[]
    expect(items.map((b) => b.type)).toEqual(['subscribe'])
  })

  it('two engines without Web Locks (Node) share the process lock: one replays, the other is busy', async () => {
    world = await startSyncWorld({ server })
    const options = { db: world.db, now: () => world!.clock.now, schedule: () => undefined }
    const first = createSyncEngine({ ...options, locks: null })
    const second = createSyncEngine({ ...options, locks: null })
    for (let i = 0; i < 5; i += 1)
      await createRecord('department', world.workspaceId, { name: `Отдел ${i}`, description: '' })
    const outcomes = await Promise.all([first.replay(), second.replay()])
    expect(outcomes.sort()).toEqual(['busy', 'idle'])
    expect(world.traffic.maxInFlight).toBe(1)
    const response = await world.call('GET', '/api/department/list', undefined, {
      workspace_id: world.workspaceId,
    })
    const names = ((await response.json()) as { name: string }[]).map((d) => d.name).sort()
    expect(names).toEqual(['Отдел 0', 'Отдел 1', 'Отдел 2', 'Отдел 3', 'Отдел 4'])
  })
})
