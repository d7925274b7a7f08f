import { checkAuth } from '../../src/api/auth.ts'
import { isLocalId } from '../../src/data/ids.ts'
import { readSyncMeta, storeAuthToken } from '../../src/data/sync-state.ts'
import type { BlockRow, LocalBlock, OutboxEntry, RecordKind } from '../../src/data/types.ts'
import { BLOCK_TYPES, type BlockType } from '../../src/domain/block.ts'
import { createAuthCheckCache, runGuard } from '../../src/features/auth/guard.ts'
import { pngImage } from '../server/helpers.ts'
import { textBlockBody } from './text-block.ts'
import {
  faultOnce,
  randomPolicy,
  seededRandom,
  type Fault,
  type FaultPolicy,
} from './fault-proxy.ts'
import {
  clashProblems,
  compareConflicts,
  compareWithIntent,
  conflictFields,
  Intent,
  intentFromServer,
  mirrorRows,
  mirrorSideFor,
  Person,
  serverSide,
} from './intent.ts'
import type { SyncWorld, Worker } from './sync-world.ts'
import { currentIdOf } from '../../src/data/client-keys.ts'

/**
 * Seeded random scenarios for the convergence test: a person edits every kind of record and every
 * block type through the product's commands while the sync workers replay through a faulty
 * network, get killed mid-chain, race each other and lose their session. Everything is decided by
 * the seed (scenario choices and faults come from two separate seeded streams), so a failing seed
 * replays the same story.
 */

export interface ScenarioOptions {
  steps: number
}

export interface ScenarioReport {
  /** What happened, one line per step (printed when the scenario fails). */
  log: string[]
  /** Invariants broken during the run (not the final comparison). */
  violations: string[]
  /** The worker alive at the end (it drains the outbox). */
  worker: Worker
  /** Local ids of projects copied during the run. */
  copies: number[]
  /** What the person meant, from their actions alone (tests/support/intent.ts). */
  intent: Intent
}

type Random = () => number

const STORM = {
  'drop-request': 0.09,
  'drop-response': 0.09,
  delay: 0.04,
  'status-500': 0.04,
  'status-502': 0.04,
  'status-429': 0.04,
  duplicate: 0.08,
  'stale-duplicate': 0.06,
  hang: 0.04,
  'html-200': 0.03,
  truncated: 0.04,
  'wrong-type': 0.03,
}
const DRIZZLE = {
  'drop-response': 0.06,
  duplicate: 0.05,
  'stale-duplicate': 0.05,
  'status-502': 0.03,
  delay: 0.03,
}
/** Sign-in and check_auth under faults (a late duplicate or a refusal makes no sense there). */
const AUTH_STORM = {
  'drop-request': 0.12,
  'drop-response': 0.12,
  'status-500': 0.06,
  'status-502': 0.06,
  'status-429': 0.05,
  duplicate: 0.06,
  hang: 0.05,
  'html-200': 0.05,
  truncated: 0.05,
  'wrong-type': 0.05,
}
const REFUSALS = ['reject-404', 'reject-409', 'reject-422'] as const satisfies readonly Fault[]
/**
 * The writes of directory records, which a refusal parks (docs/SYNC.md "The replay protocol",
 * step 7).
 */
const RECORD_WRITE = /^\/api\/(amo|bitrix|department|location|specialist)\/(add|update)$/

const pick = <T>(random: Random, items: readonly T[]): T | undefined =>
  items.length === 0 ? undefined : items[Math.floor(random() * items.length)]
const chance = (random: Random, p: number) => random() < p
const between = (random: Random, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1))

/** A small PNG; `tag` makes its width unique (a background is known by its picture's size). */
function pngBlob(random: Random, tag?: number): { blob: Blob; width: number; height: number } {
  const width = tag === undefined ? between(random, 8, 24) : 8 + (tag % 400)
  const height = between(random, 8, 24)
  return {
    blob: new Blob([new Uint8Array(pngImage(width, height))], { type: 'image/png' }),
    width,
    height,
  }
}

/** A complete new block of `type` on `bgId` (every field its type requires). */
export function newBlock(
  type: BlockType,
  bgId: number,
  n: number,
  extra: { specialistId?: number | null; imageUrl?: string; zindex?: number } = {},
): LocalBlock {
  const base = { bg_id: bgId, x: n % 50, y: -(n % 30), zindex: extra.zindex ?? n, rotation: 0 }
  const name = `Блок ${n}`
  switch (type) {
    case 'text':
      return { ...textBlockBody(bgId, n), ...base }
    case 'button':
      return {
        ...base,
        type,
        width: 30,
        height: 10,
        btn_type: 'link',
        btn_type_value: 'https://example.ru/sale',
        name,
        border_width: 1,
        border_color: '#000000',
        fontSize: 5,
        font: 'Inter',
        align: 'center',
        color: '#ffffff',
        background: '#336699',
        text: `Купить ${n}`,
      }
    case 'image':
      return {
        ...base,
        type,
        width: 20,
        height: 20,
        scaleX: 1,
        scaleY: 1,
        name,
        image_url: extra.imageUrl ?? '',
      }
    case 'video':
      return {
        ...base,
        type,
        width: 40,
        height: 30,
        scaleX: 1,
        scaleY: 1,
        video_url: 'https://example.ru/promo.mp4',
        video_src: '',
        name,
      }
    case 'gift':
      return {
        ...base,
        type,
        width: 30,
        color: '#aa3344',
        text: `Подарок ${n}`,
        name,
        button_url: '',
        button_hook_url: '',
      }
    case 'price':
      return {
        ...base,
        type,
        width: 30,
        color: '#223344',
        text: `${n} 900 ₽`,
        text_price: n * 1000 + 900,
        button_text: `Записаться ${n}`,
      }
    case 'subscribe':
      return {
        ...base,
        type,
        width: 30,
        specialist_id: extra.specialistId ?? null,
        date: '2026-12-01',
        action: `Запись ${n}`,
      }
  }
}

/** An edit of a saved or local block: moves it, restacks it, changes its words. */
function editedBlock(random: Random, block: BlockRow, n: number): LocalBlock {
  const next = { ...block, x: between(random, -90, 90), y: between(random, -50, 50) } as BlockRow
  if (chance(random, 0.3)) next.zindex = between(random, 0, 200)
  if (chance(random, 0.3)) next.rotation = between(random, -180, 180)
  if ('text' in next && next.type !== 'price' && chance(random, 0.5)) next.text = `Правка ${n}`
  if (next.type === 'price' && chance(random, 0.5)) {
    next.text = `${n} 500 ₽`
    next.text_price = n * 1000 + 500
  }
  return next
}

function recordFields(
  kind: RecordKind,
  n: number,
  refs: { department?: number; location?: number },
) {
  switch (kind) {
    case 'amo':
      return {
        name: `amoCRM ${n}`,
        subdomain: `clinic-${n}`,
        client_id: `client-${n}`,
        client_secret: `secret-value-${n}`,
        redirect_uri: 'https://clinic.example/cb',
      }
    case 'bitrix':
      return {
        name: `Битрикс ${n}`,
        portal_url: `https://clinic${n}.bitrix24.ru`,
        webhook_url: `https://clinic${n}.bitrix24.ru/rest/7/token${n}abcdef/`,
      }
    case 'department':
      return { name: `Отделение ${n}`, description: `Описание ${n}` }
    case 'location':
      return { name: `Филиал ${n}`, address: `Тверская, ${n}`, phone: '+7 495 000-00-00' }
    case 'specialist':
      return {
        name: `Специалист ${n}`,
        position: 'Терапевт',
        department_id: refs.department ?? null,
        location_id: refs.location ?? null,
        phone: '',
        email: `doctor${n}@example.ru`,
        photo_url: '',
        description: '',
      }
  }
}

function recordPatch(kind: RecordKind, n: number): Record<string, unknown> {
  switch (kind) {
    case 'amo':
      return { name: `amoCRM ${n}`, client_id: `client-${n}` }
    case 'bitrix':
      return { name: `Битрикс ${n}` }
    case 'department':
      return { description: `Правка ${n}` }
    case 'location':
      return { address: `Арбат, ${n}` }
    case 'specialist':
      return { position: `Хирург ${n}` }
  }
}

const KINDS: readonly RecordKind[] = ['amo', 'bitrix', 'department', 'location', 'specialist']

/** The fields of each kind another device writes while the person's change of them waits. */
const CONFLICT_FIELDS: Record<RecordKind, readonly string[]> = {
  amo: ['name', 'client_id'],
  bitrix: ['name'],
  department: ['name', 'description'],
  location: ['name', 'address'],
  specialist: ['name', 'position'],
}

const colour = (random: Random) =>
  `#${Math.floor(random() * 0x1000000)
    .toString(16)
    .padStart(6, '0')}`

/** A change of the person's waiting in the outbox, and the fields another device will write. */
interface Waiting {
  table: RecordKind | 'blocks'
  id: number
  entry: OutboxEntry
  fields: string[]
}

/** Runs one scenario on `world`; the caller drains and compares afterwards. */
export async function runScenario(
  seed: number,
  world: SyncWorld,
  options: ScenarioOptions,
): Promise<ScenarioReport> {
  const random = seededRandom(seed)
  const faults = seededRandom(seed ^ 0x5bd1e995)
  // The conflicts' own stream: the rest of the story draws as it did before they came.
  const conflictRandom = seededRandom(seed ^ 0x2f6b1c3d)
  const db = world.db
  const log: string[] = []
  const violations: string[] = []
  const copies: number[] = []
  let n = 0
  let workers = 0
  let worker: Worker = world.startWorker(`worker-${workers}`)
  let policy: FaultPolicy = () => 'pass'
  const setPolicy = (next: FaultPolicy) => {
    policy = next
    world.proxy.setPolicy(next)
  }
  const policies: Record<string, FaultPolicy> = {
    calm: () => 'pass',
    drizzle: randomPolicy(faults, DRIZZLE),
    storm: randomPolicy(faults, STORM),
  }
  // What the person means starts from what the server held before they acted.
  const intent = new Intent()
  {
    const state = await serverState(world)
    await intentFromServer(intent, state, serverSide(world, state))
  }
  const person = new Person(world, intent)
  // The app lists the workspaces first (the mirror starts from the server's).
  await worker.engine.refresh({ kind: 'workspaces' })
  setPolicy(policies.drizzle!)

  const workspaces = async () => (await db.workspaces.toArray()).map((w) => w.id)
  const inWorkspace = async (kind: RecordKind, ws: number) =>
    (await db.recordTable(kind).where('workspace_id').equals(ws).toArray()).map((r) => r.id)
  const someWorkspace = async () => pick(random, await workspaces())

  async function someBackground(): Promise<{ bgId: number; ws: number } | undefined> {
    const bgs = await db.backgrounds.toArray()
    const bg = pick(random, bgs)
    if (!bg) return undefined
    const project = await db.projects.get(bg.project_id)
    return project ? { bgId: bg.id, ws: project.workspace_id } : undefined
  }

  async function ensureProject(ws: number): Promise<number> {
    const existing = await db.projects.where('workspace_id').equals(ws).toArray()
    const project = pick(random, existing)
    if (project) return project.id
    n += 1
    const id = await person.createProject(ws, `Проект ${n}`)
    log.push(`createProject ${id} in ${ws}`)
    return id
  }

  /** Moves the clock to when every waiting entry may be tried again (backoff is real time). */
  async function waitOutBackoff() {
    const pending = await db.outbox.where('state').equals('pending').toArray()
    const next = Math.max(...pending.map((e) => e.nextAttemptAt))
    if (Number.isFinite(next) && next > world.clock.now) world.clock.now = next
  }

  async function replayOnce(label: string) {
    const outcome = await worker.engine.replay()
    log.push(`${label}: ${worker.name} → ${outcome} (${world.traffic.sent} sent)`)
    if (outcome === 'backoff' && chance(random, 0.8)) await waitOutBackoff()
    return outcome
  }

  const edits: (() => Promise<void>)[] = [
    // Workspaces
    async () => {
      n += 1
      const id = await person.createWorkspace(`Пространство ${n}`)
      log.push(`createWorkspace ${id}`)
    },
    async () => {
      const id = await someWorkspace()
      if (id === undefined) return
      n += 1
      await person.renameWorkspace(id, `Пространство ${n}`)
      log.push(`renameWorkspace ${id}`)
    },
    async () => {
      const ids = (await workspaces()).filter((id) => id !== world.workspaceId)
      const id = pick(random, ids)
      if (id === undefined || !chance(random, 0.4)) return
      await person.deleteWorkspace(id)
      log.push(`deleteWorkspace ${id}`)
    },
    // Records of every kind
    async () => {
      const ws = await someWorkspace()
      const kind = pick(random, KINDS)!
      if (ws === undefined) return
      n += 1
      const refs = {
        department: pick(random, await inWorkspace('department', ws)),
        location: pick(random, await inWorkspace('location', ws)),
      }
      const enabled = chance(random, 0.2) ? false : undefined
      const fields: Record<string, unknown> = { ...recordFields(kind, n, refs) }
      // Departments and locations have no on/off.
      if (enabled === false && kind !== 'department' && kind !== 'location') fields.enabled = false
      if (kind === 'specialist' && chance(random, 0.3))
        fields.photo_url = await person.uploadFile(pngBlob(random).blob)
      const id = await person.createRecord(kind, ws, fields as never)
      log.push(`create ${kind} ${id} in ${ws}`)
    },
    async () => {
      const kind = pick(random, KINDS)!
      const row = pick(random, await db.recordTable(kind).toArray())
      if (!row) return
      n += 1
      await person.updateRecord(kind, row.id, recordPatch(kind, n) as never)
      log.push(`update ${kind} ${row.id}`)
    },
    // The same record edited twice in a row (a typo fixed): both edits wait together, and the
    // later one must win when they are merged.
    async () => {
      const kind = pick(random, KINDS)!
      const row = pick(random, await db.recordTable(kind).toArray())
      if (!row) return
      n += 1
      await person.updateRecord(kind, row.id, recordPatch(kind, n) as never)
      n += 1
      await person.updateRecord(kind, row.id, recordPatch(kind, n) as never)
      log.push(`update ${kind} ${row.id} twice`)
    },
    async () => {
      const kind = pick(random, ['amo', 'bitrix', 'specialist'] as const)!
      const row = pick(random, await db.recordTable(kind).toArray())
      if (!row) return
      const enabled = !(row as { enabled: boolean }).enabled
      await person.setRecordEnabled(kind, row.id, enabled)
      log.push(`${enabled ? 'enable' : 'disable'} ${kind} ${row.id}`)
    },
    async () => {
      const kind = pick(random, KINDS)!
      const row = pick(random, await db.recordTable(kind).toArray())
      if (!row || !chance(random, 0.5)) return
      // A deleted specialist is cleared from subscribe blocks that name it, here and on the server.
      await person.deleteRecord(kind, row.id)
      log.push(`delete ${kind} ${row.id}`)
    },
    // Projects and backgrounds
    async () => {
      const ws = await someWorkspace()
      if (ws === undefined) return
      n += 1
      const id = await person.createProject(ws, `Проект ${n}`)
      log.push(`createProject ${id} in ${ws}`)
    },
    async () => {
      const row = pick(random, await db.projects.toArray())
      if (!row) return
      n += 1
      if (chance(random, 0.5)) {
        await person.renameProject(row.id, `Проект ${n}`)
        log.push(`renameProject ${row.id}`)
      } else {
        const type = pick(random, [1, 2] as const)!
        await person.setProjectType(row.id, type)
        log.push(`setProjectType ${row.id} ${type}`)
      }
    },
    async () => {
      const row = pick(random, await db.projects.toArray())
      if (!row || !chance(random, 0.3)) return
      n += 1
      const id = await person.copyProject(row.id)
      if (id === undefined) return
      copies.push(id)
      log.push(`copyProject ${row.id} → ${id}`)
    },
    async () => {
      const row = pick(random, await db.projects.toArray())
      if (!row || !chance(random, 0.3)) return
      await person.deleteProject(row.id)
      log.push(`deleteProject ${row.id}`)
    },
    async () => {
      const ws = await someWorkspace()
      if (ws === undefined) return
      const projectId = await ensureProject(ws)
      n += 1
      const { blob, width, height } = pngBlob(random, n)
      const id = await person.addBackground(projectId, blob, { width, height })
      log.push(`addBackground ${id} to ${projectId}`)
    },
    async () => {
      const bg = pick(random, await db.backgrounds.toArray())
      if (!bg || !chance(random, 0.3)) return
      await person.deleteBackground(bg.id)
      log.push(`deleteBackground ${bg.id}`)
    },
    // Blocks of every type: new ones, edits of several at once, deletes
    async () => {
      const target = await someBackground()
      if (!target) return
      const count = between(random, 1, 3)
      const blocks: LocalBlock[] = []
      for (let i = 0; i < count; i += 1) {
        n += 1
        const type = pick(random, BLOCK_TYPES)!
        const extra: Parameters<typeof newBlock>[3] = {}
        if (type === 'subscribe')
          extra.specialistId = pick(random, await inWorkspace('specialist', target.ws)) ?? null
        if (type === 'image' && chance(random, 0.5))
          extra.imageUrl = await person.uploadFile(pngBlob(random).blob)
        blocks.push(newBlock(type, target.bgId, n, extra))
      }
      const ids = await person.saveBlocks(blocks)
      log.push(
        `saveBlocks new ${blocks.map((b) => b.type).join(',')} → ${ids.join(',')} on ${target.bgId}`,
      )
    },
    async () => {
      const target = await someBackground()
      if (!target) return
      const onBg = await db.blocks.where('bg_id').equals(target.bgId).toArray()
      const mine = []
      for (const block of onBg) if (!(await person.isForeign('blocks', block.id))) mine.push(block)
      const chosen = mine.filter(() => chance(random, 0.5))
      if (chosen.length === 0) return
      n += 1
      await person.saveBlocks(chosen.map((b) => editedBlock(random, b, n)))
      log.push(`saveBlocks edit ${chosen.map((b) => b.id).join(',')}`)
    },
    async () => {
      const block = pick(random, await db.blocks.toArray())
      if (!block || !chance(random, 0.5) || (await person.isForeign('blocks', block.id))) return
      await person.deleteBlocks([block.id])
      log.push(`deleteBlocks ${block.id}`)
    },
  ]

  /**
   * Another device recolours or deletes a saved block on the server; the person then adds a block
   * on the same background, and that save's completion step brings the other device's change into
   * the mirror (the person's own edits leave that block alone).
   */
  async function otherDevice() {
    // A copy still queued copies whatever the server holds when it runs: another device's change
    // made meanwhile would be a conflict between two people, not a sync fault (left for now).
    if ((await db.outbox.filter((e) => e.op === 'copy').count()) > 0) return
    const saved = (await db.blocks.toArray()).filter((b) => b.id > 0 && b.bg_id > 0)
    const block = pick(random, saved)
    if (!block || (await person.isForeign('blocks', block.id))) return
    if ((await db.outbox.where('[table+ck]').equals(['blocks', block.ck]).count()) > 0) return
    const done = await person.otherDeviceEdits(block.id, chance(random, 0.4))
    if (!done) return
    n += 1
    const [id] = await person.saveBlocks([newBlock('text', block.bg_id, n)])
    log.push(`another device ${done}; then a new block ${id} on ${block.bg_id}`)
  }

  /**
   * A change of the person's still waiting (unsent, or sent and unanswered) whose fields another
   * device could write too: of a directory record, or of a saved block (its place or colour). The
   * only change of its record in the outbox.
   */
  async function waitingChange(on: 'record' | 'block'): Promise<Waiting | undefined> {
    const found: Waiting[] = []
    for (const entry of await db.outbox.where('state').equals('pending').toArray()) {
      const record = on === 'record' && entry.op === 'update' && entry.table in CONFLICT_FIELDS
      const block = on === 'block' && entry.op === 'save' && entry.table === 'blocks'
      if ((!record && !block) || entry.baseVersion === undefined || !entry.base) continue
      if ((await db.outbox.where('[table+ck]').equals([entry.table, entry.ck]).count()) !== 1)
        continue
      const row = (await db.table(entry.table).where('ck').equals(entry.ck).first()) as
        { id: number; bg_id?: number } | undefined
      if (!row || row.id < 0 || (row.bg_id ?? 0) < 0) continue
      if (block && (await person.isForeign('blocks', row.id))) continue
      const payload = entry.payload as Record<string, unknown>
      const base = entry.base
      const changed = Object.keys(payload).filter(
        (field) => JSON.stringify(payload[field]) !== JSON.stringify(base[field]),
      )
      const fields = record
        ? [
            pick(
              conflictRandom,
              CONFLICT_FIELDS[entry.table as RecordKind].filter((f) => changed.includes(f)),
            ),
          ]
        : changed.includes('color') && (!changed.includes('x') || chance(conflictRandom, 0.5))
          ? ['color']
          : changed.includes('x') || changed.includes('y')
            ? ['x', 'y']
            : []
      const known = fields.filter((field): field is string => field !== undefined)
      if (known.length > 0)
        found.push({ table: entry.table as Waiting['table'], id: row.id, entry, fields: known })
    }
    return pick(conflictRandom, found)
  }

  /** The person changes a saved record's field or a saved block's place or colour now. */
  async function freshChange(on: 'record' | 'block'): Promise<Waiting | undefined> {
    const unqueued = async <T extends { id: number }>(table: string, rows: T[]) => {
      const out: T[] = []
      for (const row of rows) {
        const { ck, version } = row as { ck?: string; version?: unknown }
        if (row.id > 0 && typeof version === 'number' && ck !== undefined)
          if ((await db.outbox.where('[table+ck]').equals([table, ck]).count()) === 0) out.push(row)
      }
      return out
    }
    let table: Waiting['table']
    let id: number
    let fields: string[]
    if (on === 'record') {
      const kind = pick(conflictRandom, KINDS)!
      const row = pick(conflictRandom, await unqueued(kind, await db.recordTable(kind).toArray()))
      if (!row) return undefined
      const field = pick(conflictRandom, CONFLICT_FIELDS[kind])!
      n += 1
      await person.updateRecord(kind, row.id, {
        [field]: `${field === 'name' ? 'Название' : 'Правка'} ${n}`,
      })
      ;[table, id, fields] = [kind, row.id, [field]]
    } else {
      const saved = (await db.blocks.toArray()).filter((b) => b.bg_id > 0)
      const mine = []
      for (const block of await unqueued('blocks', saved))
        if (!(await person.isForeign('blocks', block.id))) mine.push(block)
      const block = pick(conflictRandom, mine)
      if (!block) return undefined
      const recolour = 'color' in block && chance(conflictRandom, 0.5)
      const next = recolour
        ? { ...block, color: colour(conflictRandom) }
        : {
            ...block,
            x: block.x + between(conflictRandom, 1, 40),
            y: block.y - between(conflictRandom, 1, 20),
          }
      await person.saveBlocks([next as BlockRow])
      ;[table, id, fields] = ['blocks', block.id, recolour ? ['color'] : ['x', 'y']]
    }
    const ck = (await db.table(table).get(id))?.ck as string | undefined
    const entry = ck ? await db.outbox.where('[table+ck]').equals([table, ck]).first() : undefined
    return entry ? { table, id, entry, fields } : undefined
  }

  /**
   * Another device writes the same fields of the same record or block the person has a change of
   * waiting for, through the real server and from the version that change started from: the
   * replay meets a real `409` whose `current` is the other device's row, and settles it
   * (docs/SYNC.md "Conflicts"). The person then keeps their value («Оставить моё»), takes the
   * server's («Взять с сервера»), or leaves it undecided to the end. Sometimes the person's change
   * has been sent and lost first (its request dropped on the way): the retry meets the write.
   * Returns whether the other device wrote.
   */
  async function conflict(on: 'record' | 'block'): Promise<boolean> {
    // A copy waits on a block's conflict and copies what the person chooses: left out (Person).
    if (on === 'block' && (await db.outbox.filter((e) => e.op === 'copy').count()) > 0) return false
    world.proxy.setOffline(false)
    const target = (await waitingChange(on)) ?? (await freshChange(on))
    if (!target) return false
    const { table, id, fields } = target
    if (chance(conflictRandom, 0.3)) {
      const dropped = faultOnce(
        'drop-request',
        (r) => r.key === target.entry.key,
        () => 'pass',
      )
      world.proxy.setPolicy(dropped)
      await waitOutBackoff()
      await replayOnce('replay, the change’s request dropped')
      world.proxy.setPolicy(policy)
      if (dropped.fired()) log.push(`the change of ${table} ${id} was sent and lost`)
    }
    const waiting = await db.outbox.where('[table+ck]').equals([table, target.entry.ck]).first()
    if (waiting?.state !== 'pending' || waiting.baseVersion === undefined) return false
    const row = (await db.table(table).get(id)) as Record<string, number> | undefined
    const theirs: Record<string, unknown> = {}
    n += 1
    const draw = (field: string) =>
      field === 'color'
        ? colour(conflictRandom)
        : field === 'x'
          ? (row?.x ?? 0) - between(conflictRandom, 1, 40)
          : field === 'y'
            ? (row?.y ?? 0) + between(conflictRandom, 1, 20)
            : `${field === 'name' ? 'Другое устройство' : 'С другого устройства'} ${n}`
    for (const field of fields) {
      // Neither the person's value nor the one their change started from: a change there too.
      const taken = [row?.[field], waiting.base?.[field]].map((value) => JSON.stringify(value))
      let value = draw(field)
      while (taken.includes(JSON.stringify(value))) value = draw(field)
      theirs[field] = value
    }
    const made = await person.otherDeviceConflicts(table, id, waiting.baseVersion, theirs)
    if (typeof made === 'string') {
      log.push(`another device did not write ${table} ${id}: ${made}`)
      return false
    }
    log.push(`another device wrote ${made.key} ${fields.join(',')} over a waiting change`)
    // The replay meets the other device's write: until the conflict is parked, or settled.
    const parked = () =>
      db.outbox
        .where('[table+ck]')
        .equals([table, target.entry.ck])
        .filter((e) => e.code === 'conflict' && conflictFields(e).some((f) => fields.includes(f)))
        .first()
    let entry = await parked()
    for (let i = 0; i < 8 && !entry; i += 1) {
      if ((await db.outbox.where('[table+ck]').equals([table, target.entry.ck]).count()) === 0)
        break
      await waitOutBackoff()
      const outcome = await replayOnce('replay into the other device’s write')
      if (outcome === 'signin' || outcome === 'signedout') break
      entry = await parked()
    }
    if (!entry) {
      // Settled without asking, or not met yet: the final comparisons say which.
      log.push(`conflict on ${made.key}: none parked`)
      return true
    }
    const named = clashProblems(intent, made.key, entry)
    violations.push(...named.problems)
    const choice = conflictRandom()
    if (choice < 1 / 3) {
      await person.keepMine(worker.engine, entry)
      log.push(`conflict on ${made.key} ${on}: kept mine`)
    } else if (choice < 2 / 3) {
      await person.takeTheirs(worker.engine, entry)
      log.push(`conflict on ${made.key} ${on}: took the server’s`)
    } else {
      log.push(`conflict on ${made.key} ${on}: left undecided`)
    }
    return true
  }

  /** Offline: a department and a location, and a specialist using both. */
  async function offlineDirectoryChain() {
    world.proxy.setOffline(true)
    const ws = (await someWorkspace()) ?? world.workspaceId
    n += 1
    const department = await person.createRecord(
      'department',
      ws,
      recordFields('department', n, {}) as never,
    )
    const location = await person.createRecord(
      'location',
      ws,
      recordFields('location', n, {}) as never,
    )
    const specialist = await person.createRecord(
      'specialist',
      ws,
      recordFields('specialist', n, { department, location }) as never,
    )
    log.push(
      `offline: department ${department}, location ${location}, specialist ${specialist} in ${ws}`,
    )
    await replayOnce('replay while offline')
  }

  /** Offline: a specialist, a background on a new project, blocks on it with a subscribe to him. */
  async function offlineCanvasChain() {
    world.proxy.setOffline(true)
    const ws = (await someWorkspace()) ?? world.workspaceId
    n += 1
    const specialist = await person.createRecord(
      'specialist',
      ws,
      recordFields('specialist', n, {}) as never,
    )
    const projectId = await ensureProject(ws)
    n += 1
    const { blob, width, height } = pngBlob(random, n)
    const bgId = await person.addBackground(projectId, blob, { width, height })
    // Every block type, stacked in reverse, an image waiting for its upload among them.
    const imageUrl = await person.uploadFile(pngBlob(random).blob)
    const blocks = BLOCK_TYPES.map((type, i) => {
      n += 1
      const zindex = BLOCK_TYPES.length - i
      return newBlock(type, bgId, n, { specialistId: specialist, zindex, imageUrl })
    })
    const ids = await person.saveBlocks(blocks)
    log.push(
      `offline: specialist ${specialist}, background ${bgId} on ${projectId}, blocks ${ids.join(',')}`,
    )
    await replayOnce('replay while offline')
    if (chance(random, 0.7)) world.proxy.setOffline(false)
  }

  async function killWorker(most = 4) {
    const killAfter = between(random, 1, most)
    await waitOutBackoff()
    workers += 1
    const doomed = world.startWorker(`worker-${workers}`, { killAfter })
    const outcome = await Promise.race([
      doomed.engine.replay().then((result) => `finished ${result}`),
      doomed.killed.then(() => 'killed'),
    ])
    log.push(`${doomed.name} (dies on call ${killAfter}): ${outcome}`)
    workers += 1
    worker = world.startWorker(`worker-${workers}`)
  }

  async function twoWorkers() {
    workers += 1
    const other = world.startWorker(`worker-${workers}`)
    const [a, b] = await Promise.all([worker.engine.replay(), other.engine.replay()])
    log.push(`two workers at once: ${a}, ${b}`)
    if (a !== 'busy' && b !== 'busy') violations.push(`two workers replayed at once (${a}, ${b})`)
    if (chance(random, 0.5)) worker = other
  }

  async function sessionEnds() {
    if (chance(random, 0.5)) {
      // The server no longer accepts the token: 401, "sign in again", nothing sent until then.
      n += 1
      await person.createRecord(
        'location',
        world.workspaceId,
        recordFields('location', n, {}) as never,
      )
      await storeAuthToken({ token: `revoked-${n}`, expiry: null }, db)
      let outcome = 'backoff'
      for (let i = 0; i < 3 && outcome === 'backoff'; i += 1) {
        await waitOutBackoff()
        outcome = await replayOnce('replay with a revoked token')
      }
      if (outcome === 'signin') {
        if (!(await readSyncMeta(db)).needsSignIn) violations.push('401 did not ask to sign in')
        n += 1
        await person.createRecord(
          'department',
          world.workspaceId,
          recordFields('department', n, {}) as never,
        )
        const before = world.traffic.sent
        const again = await worker.engine.replay()
        if (again !== 'signin' || world.traffic.sent !== before)
          violations.push(
            `replay went on after 401 (${again}, ${world.traffic.sent - before} sent)`,
          )
      }
    } else {
      // The stored token's expiry passes: the worker asks to sign in again before sending anything.
      await storeAuthToken({ token: world.token, expiry: world.clock.now + 1000 }, db)
      world.clock.now += 2000
      const before = world.traffic.sent
      const outcome = await worker.engine.replay()
      log.push(`replay with an expired token → ${outcome}`)
      if (outcome !== 'signin' || world.traffic.sent !== before)
        violations.push(
          `replay with an expired token: ${outcome}, ${world.traffic.sent - before} sent`,
        )
    }
    await signInUnderFaults()
    if ((await readSyncMeta(db)).needsSignIn) violations.push('a new token did not resume replay')
  }

  /**
   * The person signs in again on the lock screen, through the proxy with faults on sign-in, then
   * the app checks the session (check_auth, faults too): a fault is never taken for a refusal.
   */
  async function signInUnderFaults() {
    // Signing in needs a network, however bad: the person waits until there is one.
    world.proxy.setOffline(false)
    const auth = randomPolicy(faults, AUTH_STORM, { includeAuth: true })
    world.proxy.setPolicy(auth)
    const presses = await world.signInThroughApp(8)
    if (presses === null) {
      // Eight faults in a row: the network is that bad; the person tries later, on a calm one.
      await world.signInAgain()
      log.push('signed in again (after 8 failed tries under faults)')
    } else {
      log.push(`signed in again through faults (${presses} ${presses === 1 ? 'press' : 'presses'})`)
    }
    let unauthorized = false
    const result = await runGuard({ pathname: '/projects', href: '/projects' }, null, {
      checkAuth: () => checkAuth(),
      session: () => ({ token: world.token, tokenExpiry: Date.now() + 86_400_000 }),
      role: () => 'user' as never,
      now: () => Date.now(),
      cache: createAuthCheckCache(),
      onUser: () => undefined,
      onUnauthorized: () => (unauthorized = true),
    })
    log.push(
      `check_auth under faults → ${result.kind}${'offline' in result && result.offline ? ' (offline)' : ''}`,
    )
    if (result.kind !== 'allow' || unauthorized)
      violations.push(`check_auth under faults signed the person out (${result.kind})`)
    world.proxy.setPolicy(policy)
  }

  /**
   * The proxy refuses (404/409/422) the first try of the next write of a directory record: exactly
   * that entry is parked, the rest goes on; the person then presses «Повторить» or «Отменить
   * изменение», and the intent follows their choice. Returns whether a write was refused.
   */
  async function refusal(fault = pick(random, REFUSALS)!): Promise<boolean> {
    world.proxy.setOffline(false)
    const status = Number(fault.slice(-3))
    const armed = faultOnce(fault, (r) => r.method === 'POST' && RECORD_WRITE.test(r.path), policy)
    world.proxy.setPolicy(armed)
    const rejectedBefore = world.proxy.rejected.length
    // The outbox as it stands before the refusal (the refused request is one of its entries).
    const queued = await db.outbox.toArray()
    let outcome = 'backoff'
    for (let i = 0; i < 4 && !armed.fired() && outcome === 'backoff'; i += 1) {
      await waitOutBackoff()
      outcome = await replayOnce(`replay, ${fault} armed`)
    }
    world.proxy.setPolicy(policy)
    if (!armed.fired()) return false
    const refused = world.proxy.rejected[rejectedBefore]!
    const entry = (await db.outbox.filter((e) => e.key === refused.key).first()) as
      (OutboxEntry & { table: RecordKind }) | undefined
    log.push(
      `${fault} on ${refused.path}: ${entry ? `${entry.op} ${entry.table} ${entry.ck} ${entry.state} ${entry.code}` : 'no entry'}`,
    )
    if (!entry && (await droppedWithItsDelete(queued, refused.key))) {
      log.push(`${fault} on ${refused.path}: the create of a record deleted since, gone with it`)
      return true
    }
    if (!entry || entry.state !== 'parked') {
      violations.push(`${refused.path} refused with ${status}: its entry was not parked`)
      return true
    }
    if (outcome === 'idle' && entry.op === 'update') {
      const left = await db.outbox.where('state').equals('pending').count()
      if (left > 0)
        violations.push(`a parked ${entry.table} update held back ${left} other entries`)
    }
    const others = await db.outbox.where('[table+ck]').equals([entry.table, entry.ck]).count()
    // An update is discarded only when nothing else of that record waits (the panel's case).
    const discard = chance(random, 0.5) && (entry.op === 'create' || others === 1)
    // The person presses once, on a network that answers (a restore lost to a fault is the next
    // refresh's job).
    world.proxy.setPolicy(() => 'pass')
    if (discard) await person.discardParked(worker.engine, entry)
    else await person.retryParked(worker.engine, entry)
    world.proxy.setPolicy(policy)
    log.push(
      `${discard ? 'discarded' : 'retried'} the refused ${entry.op} of ${entry.table} ${entry.ck}`,
    )
    return true
  }

  /**
   * A refused create whose record the person deleted before the refusal came needs no choice: the
   * parked create goes with the delete, and neither is sent (docs/SYNC.md "The replay protocol",
   * step 3). Seed 533: a specialist created and deleted while the network was down, its create
   * already tried once, then refused with 409 when the network came back. True when the refused
   * request was such a create, the person's delete of it was queued, and nothing of that record is
   * left, in the outbox or the mirror (the final comparisons check that the server has none).
   */
  async function droppedWithItsDelete(queued: OutboxEntry[], key: string | null) {
    const create = queued.find((e) => e.key === key)
    if (!create || create.op !== 'create') return false
    const same = (e: OutboxEntry) => e.table === create.table && e.ck === create.ck
    if (!queued.some((e) => same(e) && e.op === 'delete')) return false
    if ((await db.outbox.where('[table+ck]').equals([create.table, create.ck]).count()) > 0)
      return false
    return (await db.table(create.table).where('ck').equals(create.ck).count()) === 0
  }

  /** Two new directory records, so that a chain of requests is waiting. */
  async function queueChain() {
    const ws = (await someWorkspace()) ?? world.workspaceId
    for (const kind of ['department', 'location'] as const) {
      n += 1
      await person.createRecord(kind, ws, recordFields(kind, n, {}) as never)
    }
  }

  /**
   * The server stops and starts again on the same data directory while a chain replays: the
   * request it was answering loses its answer, the next ones find it down, and after the restart
   * every retry is answered from what the server stored (docs/SYNC.md
   * "The replay protocol", step 5).
   */
  async function restartMidChain() {
    if (!world.restartServer) return
    world.proxy.setOffline(false)
    await queueChain()
    const after = between(random, 1, 2)
    let seen = 0
    let restarted = false
    // The server goes down with the answer; the client learns at once, while it restarts.
    let restart: Promise<void> = Promise.resolve()
    world.proxy.setObserver((request) => {
      if (request.method !== 'POST' || (seen += 1) < after || restarted) return
      restarted = true
      restart = world.restartServer!().catch((error: unknown) => {
        violations.push(`the server did not restart: ${String(error)}`)
      })
      return 'cut'
    })
    await waitOutBackoff()
    await replayOnce('replay while the server restarts')
    world.proxy.setObserver(null)
    await restart
    log.push(restarted ? `server restarted after request ${after} of the chain` : 'no restart')
  }

  /**
   * The session ends on the server in the middle of a chain: the next request is refused with 401,
   * the replay pauses («Войти снова») and sends nothing more, and after a new sign-in it goes on.
   */
  async function expiryMidChain() {
    world.proxy.setOffline(false)
    await queueChain()
    let expired = false
    let expiry: Promise<void> = Promise.resolve()
    world.proxy.setObserver(async (request) => {
      if (request.method !== 'POST' || expired) return
      expired = true
      expiry = world.expireSessions()
      await expiry
    })
    let outcome = 'backoff'
    for (let i = 0; i < 4 && outcome === 'backoff'; i += 1) {
      await waitOutBackoff()
      outcome = await replayOnce('replay while the session expires')
    }
    world.proxy.setObserver(null)
    await expiry
    if (!expired) return
    if (outcome === 'idle') {
      // The session ended after the last request of the chain: the next one will find out.
      n += 1
      await person.createRecord(
        'department',
        world.workspaceId,
        recordFields('department', n, {}) as never,
      )
      await waitOutBackoff()
      outcome = await replayOnce('replay after the session expired')
    }
    // A replay that meets a fault ends in backoff before it can read the 401: under a storm 44% of
    // the requests are dropped or held, answered 5xx or 429 by the proxy, or get an answer that is
    // not the API's (cut off, a captive portal's page, the wrong type). Seed 300 drew eight such
    // faults in a row here. So the replays go on until one reads an answer; the 401 it reads must
    // then ask to sign in.
    for (let i = 0; i < 40 && outcome === 'backoff'; i += 1) {
      await waitOutBackoff()
      outcome = await replayOnce('replay after the session expired')
    }
    log.push(`session expired mid-chain → ${outcome}`)
    if (outcome !== 'signin') {
      violations.push(`the session expired mid-chain, the replay ended ${outcome}`)
    } else {
      if (!(await readSyncMeta(db)).needsSignIn)
        violations.push('a 401 mid-chain did not ask to sign in')
      const before = world.traffic.sent
      const again = await worker.engine.replay()
      if (again !== 'signin' || world.traffic.sent !== before)
        violations.push(
          `replay went on after the session expired (${again}, ${world.traffic.sent - before} sent)`,
        )
    }
    await signInUnderFaults()
    if ((await readSyncMeta(db)).needsSignIn) violations.push('a new sign-in did not resume replay')
  }

  // Records and blocks are what people edit most.
  const [, , , createRec, updateRec, updateTwice, toggleRec, , , , , , , , newBlocks, editBlocks] =
    edits
  const weighted = [
    ...edits,
    createRec!,
    createRec!,
    updateRec!,
    updateTwice!,
    toggleRec!,
    newBlocks!,
    editBlocks!,
    editBlocks!,
  ]
  const directoryAt = between(random, 0, options.steps - 1)
  const canvasAt = between(random, 0, options.steps - 1)
  // Each seed gets one refusal (from its step on, once a directory record's write goes), and half
  // of them a server restart and a session ending mid-chain.
  const refusalAt = between(random, 0, options.steps - 1)
  let refused = false
  const restartAt = chance(random, 0.5) ? between(random, 0, options.steps - 1) : -1
  const expiryAt = chance(random, 0.5) ? between(random, 0, options.steps - 1) : -1
  // And one worker killed in the middle of a chain (more may die at random steps).
  const killAt = between(random, 0, options.steps - 1)
  // One real conflict on a record and one on a block, each from its step on, once there is one to
  // have (and a few more at random).
  const conflictsFrom = {
    record: between(conflictRandom, 0, options.steps - 1),
    block: between(conflictRandom, 0, options.steps - 1),
  }
  const conflictsDone = { record: false, block: false }
  for (let step = 0; step < options.steps; step += 1) {
    for (const on of ['record', 'block'] as const)
      if (step >= conflictsFrom[on] && !conflictsDone[on]) conflictsDone[on] = await conflict(on)
    if (chance(conflictRandom, 0.015))
      await conflict(pick(conflictRandom, ['record', 'block'] as const)!)
    if (step === directoryAt) await offlineDirectoryChain()
    if (step === canvasAt) await offlineCanvasChain()
    if (step >= refusalAt && !refused) refused = await refusal(REFUSALS[seed % REFUSALS.length])
    if (step === restartAt) await restartMidChain()
    if (step === expiryAt) await expiryMidChain()
    if (step === killAt) {
      world.proxy.setOffline(false)
      await queueChain()
      await killWorker(2)
    }
    const roll = random()
    if (roll < 0.48) {
      await pick(random, weighted)!()
    } else if (roll < 0.75) {
      for (let i = between(random, 1, 3); i > 0; i -= 1) await replayOnce('replay')
    } else if (roll < 0.79) {
      const offline = chance(random, 0.5)
      world.proxy.setOffline(offline)
      log.push(offline ? 'network down' : 'network up')
    } else if (roll < 0.82) {
      await refusal()
    } else if (roll < 0.85) {
      // Late duplicates still held come now.
      await world.proxy.redeliverHeld()
    } else if (roll < 0.89) {
      const name = pick(random, ['calm', 'drizzle', 'storm'])!
      setPolicy(policies[name]!)
      log.push(`faults: ${name}`)
    } else if (roll < 0.91) {
      await otherDevice()
    } else if (roll < 0.93) {
      await killWorker()
    } else if (roll < 0.97) {
      await twoWorkers()
    } else {
      await sessionEnds()
    }
  }
  world.proxy.setOffline(false)
  await world.proxy.redeliverHeld()
  return { log, violations, worker, copies, intent }
}

/**
 * Faults off, the network back, a valid session: replay (moving the clock past every backoff)
 * until nothing more goes; then the late duplicates still held arrive. Returns what is left in the
 * outbox (conflicts the person left undecided wait there), and why the replay stopped when it did
 * not end idle.
 */
export async function drain(
  world: SyncWorld,
  worker: Worker,
): Promise<{ left: OutboxEntry[]; stopped?: string }> {
  world.proxy.setOffline(false)
  world.proxy.setPolicy(() => 'pass')
  for (let i = 0; i < 50; i += 1) {
    const outcome = await worker.engine.replay()
    if (outcome === 'idle' || (await world.db.outbox.count()) === 0) break
    if (outcome === 'backoff') world.clock.now += 10 * 60_000
    else if (outcome === 'busy') await new Promise((resolve) => setTimeout(resolve, 5))
    else return { left: await world.db.outbox.toArray(), stopped: `replay stopped: ${outcome}` }
  }
  // Late duplicates still held arrive after everything else: they must change nothing.
  await world.proxy.redeliverHeld()
  return { left: await world.db.outbox.orderBy('seq').toArray() }
}

/** An outbox entry as a report shows it. */
export function describeEntry(e: OutboxEntry): string {
  const type = e.table === 'blocks' && 'type' in e.payload ? ` (${String(e.payload.type)})` : ''
  const fields = e.fields ? ` ${JSON.stringify(e.fields)}` : ''
  return `${e.state} ${e.op} ${e.table}${type} ${e.ck} ${e.code ?? ''} ${e.message ?? ''}${fields} ${JSON.stringify(e.payload).slice(0, 80)} sent=${e.sent}`
}

/** A conflict parked for the person to decide (a refusal the proxy answered 409 has no values). */
const isConflict = (e: OutboxEntry) => e.state === 'parked' && e.conflict !== undefined

/**
 * Everything the soak checks once a scenario has run (docs/SYNC.md "Tests"): drains the outbox,
 * then the invariants broken on the way, what is left in the outbox besides the conflicts the
 * person left undecided, server == mirror, server and mirror == intent, the undecided conflicts
 * against the device's, what the proxy saw and two workers sending at once. `lap` is called after
 * the drain and after the comparisons (the soak's report of where a seed's time went).
 */
export async function soakProblems(
  world: SyncWorld,
  report: ScenarioReport,
  lap: () => void = () => undefined,
): Promise<string[]> {
  const { left, stopped } = await drain(world, report.worker)
  lap()
  const stuck = left.filter((e) => !isConflict(e))
  const problems = [
    ...report.violations,
    ...(stopped ? [stopped] : []),
    ...stuck.map((e) => `left in the outbox: ${describeEntry(e)}`),
  ]
  if (!stopped && stuck.length === 0) {
    await openCopies(world, report.worker, report.copies)
    // One listing of the server for every comparison: nothing changes it any more.
    const state = await serverState(world)
    const side = serverSide(world, state)
    const mirror = { rows: await mirrorRows(world), side: await mirrorSideFor(world, side) }
    problems.push(
      ...(await compareWithMirror(world, state)),
      ...(await compareWithIntent(report.intent, state, side)),
      ...(await compareWithIntent(report.intent, mirror.rows, mirror.side)),
      ...(await compareConflicts(report.intent, left.filter(isConflict), mirror, {
        rows: state,
        side,
      })),
    )
  }
  lap()
  problems.push(...world.proxy.anomalies)
  if (world.concurrency.maxBusyWorkers > 1) problems.push('two workers sent requests at once')
  return problems
}

/**
 * A copied project's backgrounds and blocks come with the refresh right after the copy replays; when
 * that refresh fails (faults), they come when the project is opened (docs/SYNC.md, "Limits"). This
 * opens every copy still on the server, as the person would, before the mirror is compared.
 */
export async function openCopies(world: SyncWorld, worker: Worker, copies: number[]) {
  for (const local of copies) {
    // The copy's row keeps the key it was born with: its local id finds it under its server id.
    const id = await currentIdOf(world.db, 'projects', local)
    if (!isLocalId(id) && (await world.db.projects.get(id)))
      await worker.engine.refresh({ kind: 'project', projectId: id })
  }
}

// ---------------------------------------------------------------------------------------------
// Comparing the server with the mirror

type Row = { id: number } & Record<string, unknown>

async function get<T>(world: SyncWorld, path: string, query?: Record<string, string | number>) {
  const response = await world.call('GET', path, undefined, query)
  if (!response.ok) throw new Error(`${path} ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

/** Everything the user has on the server, listed with direct calls, table by table. */
export async function serverState(world: SyncWorld): Promise<Record<string, Row[]>> {
  const state: Record<string, Row[]> = { workspaces: [], projects: [], backgrounds: [], blocks: [] }
  for (const kind of KINDS) state[kind] = []
  state.workspaces = await get<Row[]>(world, '/api/workspace/list')
  for (const ws of state.workspaces) {
    for (const kind of KINDS)
      state[kind]!.push(...(await get<Row[]>(world, `/api/${kind}/list`, { workspace_id: ws.id })))
    const projects = await get<Row[]>(world, '/api/project/list', { workspace_id: ws.id })
    for (const project of projects) {
      const full = await get<Row & { backgrounds: Row[] }>(world, '/api/project/get', {
        project_id: project.id,
      })
      state.projects!.push(project)
      state.backgrounds!.push(...full.backgrounds)
      for (const bg of full.backgrounds)
        state.blocks!.push(...(await get<Row[]>(world, '/api/project/get_items', { bg_id: bg.id })))
    }
  }
  return state
}

/**
 * Fields not compared: the server derives them and they move on their own (a project's
 * `updated_at`, and its `cover_url`, the first background's image, which the mirror learns with
 * the next refresh of the list; the backgrounds themselves are compared), and every row's
 * `version`, which a cascade on the server moves without the mirror hearing of it until it reads
 * the row again (docs/API.md, "Versions").
 */
const IGNORED: Record<string, readonly string[]> = { projects: ['updated_at', 'cover_url'] }

/**
 * Differences between the server and the local mirror: rows missing on either side, duplicated
 * names, fields that differ, and blocks stacked in another order. Empty when they are equal.
 * `listed` is the server's `serverState` when the caller has just read it.
 */
export async function compareWithMirror(
  world: SyncWorld,
  listed?: Record<string, Row[]>,
): Promise<string[]> {
  const server = listed ?? (await serverState(world))
  const problems: string[] = []
  // A field in a conflict the person has not decided: the mirror keeps their value, the server
  // the other's (docs/SYNC.md "Conflicts"); the intent's comparisons check both.
  const undecided = new Set<string>()
  for (const entry of await world.db.outbox.filter(isConflict).toArray())
    for (const field of conflictFields(entry)) undecided.add(`${entry.table}:${entry.ck}.${field}`)
  for (const [table, serverRows] of Object.entries(server)) {
    const localRows = (await world.db.table(table).toArray()) as Row[]
    const local = new Map(localRows.map((row) => [row.id, row]))
    const remote = new Map(serverRows.map((row) => [row.id, row]))
    for (const row of localRows) {
      if (isLocalId(row.id)) problems.push(`${table} ${row.id}: still a local id`)
      else if (!remote.has(row.id))
        problems.push(`${table} ${row.id}: in the mirror, not on the server`)
    }
    for (const row of serverRows) {
      const mine = local.get(row.id)
      if (!mine) {
        problems.push(`${table} ${row.id}: on the server, not in the mirror ${JSON.stringify(row)}`)
        continue
      }
      for (const [field, value] of Object.entries(row)) {
        if (IGNORED[table]?.includes(field) || field === 'version') continue
        if (undecided.has(`${table}:${String(mine.ck)}.${field}`)) continue
        if (JSON.stringify(mine[field]) !== JSON.stringify(value))
          problems.push(
            `${table} ${row.id}.${field}: server ${JSON.stringify(value)}, mirror ${JSON.stringify(mine[field])}`,
          )
      }
    }
    // Nothing duplicated: names the scenario made unique stay unique within their parent.
    const parent = (row: Row) => String(row.bg_id ?? row.project_id ?? row.workspace_id ?? 'user')
    const seen = new Set<string>()
    for (const row of serverRows) {
      if (typeof row.name !== 'string' || row.name === '' || row.name.endsWith('(копия)')) continue
      const key = `${parent(row)}/${row.name}`
      if (seen.has(key))
        problems.push(`${table}: "${row.name}" twice in ${parent(row)} on the server`)
      seen.add(key)
    }
  }
  // The stacking order of every background's blocks, and the order of every project's backgrounds.
  const order = (rows: Row[], group: string, by: string) => {
    const out = new Map<unknown, string>()
    const sorted = [...rows].sort((a, b) => Number(a[by]) - Number(b[by]) || a.id - b.id)
    for (const row of sorted) out.set(row[group], `${out.get(row[group]) ?? ''},${row.id}`)
    return out
  }
  const pairs: [string, string, string][] = [
    ['blocks', 'bg_id', 'zindex'],
    ['backgrounds', 'project_id', 'position'],
  ]
  for (const [table, group, by] of pairs) {
    const remote = order(server[table]!, group, by)
    const local = order((await world.db.table(table).toArray()) as Row[], group, by)
    for (const [key, ids] of remote)
      if (local.get(key) !== ids)
        problems.push(`${table} of ${key} ordered ${local.get(key)}, server ${ids}`)
  }
  return problems
}
