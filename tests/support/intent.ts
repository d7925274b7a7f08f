import { createHash } from 'node:crypto'
import { idOfKey } from '../../src/data/keyed.ts'
import { addBackground, deleteBackground } from '../../src/sync/mutators/backgrounds.ts'
import { deleteBlocks, saveBlocks } from '../../src/sync/mutators/blocks.ts'
import { uploadFile } from '../../src/sync/mutators/files.ts'
import {
  copyProject,
  createProject,
  deleteProject,
  renameProject,
  setProjectType,
} from '../../src/sync/mutators/projects.ts'
import {
  createRecord,
  deleteRecord,
  setRecordEnabled,
  updateRecord,
} from '../../src/sync/mutators/records.ts'
import {
  createWorkspace,
  deleteWorkspace,
  renameWorkspace,
} from '../../src/sync/mutators/workspaces.ts'
import { localFileId } from '../../src/data/ids.ts'
import { copyName as projectCopyName } from '../../src/domain/project.ts'
import type { LocalBlock, OutboxEntry, RecordKind } from '../../src/data/types.ts'
import { fieldGroup } from '../../src/data/entries.ts'
import type { SyncEngine } from '../../src/sync/engine.ts'
import type { SyncWorld } from './sync-world.ts'

/**
 * The oracle of intent: what the person meant, built from their actions alone — never from the
 * mirror or the server, which the sync engine rewrites. Every command the scenario runs goes
 * through `Person`, which runs the product's command and records the intent: per record and block,
 * the last value of each field the person set; creations with their fields; deletions with what the
 * person expects them to take along. At the end `compareWithIntent` checks the server and the
 * mirror against it, field by field.
 *
 * Entities are known by keys the scenario controls, never by ids the engine assigns: a record by a
 * field the scenario makes unique (a department's name, an amoCRM subdomain, a Bitrix24 portal;
 * a name the person or another device gave it later too), a workspace or a project by any name the
 * person ever gave it, a background by its project and the pixel size of its picture (unique per
 * upload), a block by its background and a tag field (a text block's name, a price's button text,
 * a subscribe's action).
 *
 * Another device may write the very fields the person has a change of waiting for: the intent then
 * holds a conflict (`OpenConflict`) — the person's value against the other device's — until the
 * person decides (docs/SYNC.md "Conflicts"). «Оставить моё» keeps the person's value, «Взять с
 * сервера» makes the other device's theirs, and a conflict left undecided must be on the device,
 * naming both, while the server holds the other device's value. A value someone meant is never
 * lost silently.
 */

type Row = { id: number } & Record<string, unknown>
type Fields = Record<string, unknown>

export interface Entity {
  table: string
  key: string
  fields: Fields
}

/** A lookup of rows by id on one side (the mirror, or the server's lists). */
export interface Side {
  name: 'server' | 'mirror'
  byId(table: string, id: unknown): Row | undefined
  /** The content of an uploaded file at `url`, as a hash; a string saying why when there is none. */
  fileHash(url: string): Promise<string>
}

const RECORD_KINDS: readonly RecordKind[] = [
  'amo',
  'bitrix',
  'department',
  'location',
  'specialist',
]
/** The field of each record kind the scenario makes unique and never edits. */
const RECORD_TAG: Record<RecordKind, string> = {
  amo: 'subdomain',
  bitrix: 'portal_url',
  department: 'name',
  location: 'name',
  specialist: 'name',
}
/** Secrets come back masked: what was sent cannot be read back, so they are not compared. */
const SECRETS: Record<string, readonly string[]> = {
  amo: ['client_secret'],
  bitrix: ['webhook_url'],
}

export const sha = (bytes: Uint8Array) => `sha:${createHash('sha1').update(bytes).digest('hex')}`

function blockTag(row: Fields): string {
  if (row.type === 'price') return String(row.button_text)
  if (row.type === 'subscribe') return String(row.action)
  return String(row.name)
}

/** One field in question: the person's value and the other device's. */
export interface Clash {
  mine: unknown
  theirs: unknown
}

/** Fields of one entity both the person and another device changed, the person not asked yet. */
export interface OpenConflict {
  table: string
  key: string
  fields: Record<string, Clash>
}

const show = (value: unknown) => JSON.stringify(value)

export class Intent {
  readonly entities = new Map<string, Entity>()
  /** Conflicts the person has not decided, by entity key. */
  readonly conflicts = new Map<string, OpenConflict>()
  /** Values another device wrote, by `key.field`: a report says whose a value is. */
  private readonly written = new Map<string, string[]>()
  /** 'workspaces:<name>' / 'projects:<name>' / 'projects:#<local id>' → key. */
  private readonly aliases = new Map<string, string>()
  /** A project's backgrounds in the order the person added them. */
  private readonly backgroundOrder = new Map<string, string[]>()
  /** `local-file:<n>` urls the person picked → the picked bytes' hash. */
  readonly files = new Map<string, string>()

  /** `kind`: workspaces, projects, or a record kind whose tag is its name (another name for it). */
  alias(kind: string, name: string, key: string) {
    this.aliases.set(`${kind}:${name}`, key)
  }

  /** The key of a row on `side` (undefined when it cannot be told). */
  keyOf(table: string, row: Row | undefined, side: Side): string | undefined {
    if (!row) return undefined
    switch (table) {
      case 'workspaces':
        return this.aliases.get(`workspaces:${String(row.name)}`)
      case 'projects':
        return (
          this.aliases.get(`projects:#${row.id}`) ??
          this.aliases.get(`projects:${String(row.name)}`)
        )
      case 'backgrounds': {
        const project = this.keyOf('projects', side.byId('projects', row.project_id), side)
        return project ? `${project}/bg ${row.width}×${row.height}` : undefined
      }
      case 'blocks': {
        const bg = this.keyOf('backgrounds', side.byId('backgrounds', row.bg_id), side)
        return bg ? `${bg}/${String(row.type)} ${blockTag(row)}` : undefined
      }
      default: {
        if (!(RECORD_KINDS as readonly string[]).includes(table)) return undefined
        const tag = `${table}:${String(row[RECORD_TAG[table as RecordKind]])}`
        return this.aliases.get(tag) ?? tag
      }
    }
  }

  /** A row's fields as the intent holds them: references as keys, files as content hashes. */
  async normalize(table: string, row: Fields, side: Side): Promise<Fields> {
    const out: Fields = {}
    for (const [field, value] of Object.entries(row)) {
      // The version is the server's bookkeeping, not something a person means (docs/API.md).
      if (field === 'id' || field === 'version' || SECRETS[table]?.includes(field)) continue
      out[field] = await this.normalizeField(field, value, side)
    }
    if (table === 'projects') {
      delete out.updated_at
      delete out.cover_url
    }
    if (table === 'backgrounds') {
      delete out.project_id
      delete out.position
    }
    if (table === 'blocks') delete out.bg_id
    return out
  }

  private async normalizeField(field: string, value: unknown, side: Side) {
    const ref = (refTable: string) =>
      value === null || value === undefined
        ? null
        : (this.keyOf(refTable, side.byId(refTable, value), side) ??
          `unknown ${refTable} ${String(value)}`)
    if (field === 'workspace_id') return ref('workspaces')
    if (field === 'department_id') return ref('department')
    if (field === 'location_id') return ref('location')
    if (field === 'specialist_id') return ref('specialist')
    if (field === 'project_id') return ref('projects')
    if (
      (field === 'photo_url' || field === 'image_url') &&
      typeof value === 'string' &&
      value !== ''
    ) {
      const picked = this.files.get(value)
      if (picked) return picked
      return side.fileHash(value)
    }
    return value
  }

  put(table: string, key: string, fields: Fields) {
    this.entities.set(key, { table, key, fields })
  }

  patch(key: string | undefined, fields: Fields) {
    const entity = key ? this.entities.get(key) : undefined
    if (entity) Object.assign(entity.fields, fields)
  }

  /** Removes an entity and what the person expects to go with it (mirrors the server's keys). */
  remove(key: string | undefined) {
    if (!key) return
    const entity = this.entities.get(key)
    if (!entity) return
    this.entities.delete(key)
    // A delete ends its conflicts (docs/SYNC.md "Conflicts"); a child's go with the child.
    this.conflicts.delete(key)
    const children = [...this.entities.values()]
    if (entity.table === 'workspaces') {
      for (const child of children) if (child.fields.workspace_id === key) this.remove(child.key)
    }
    if (entity.table === 'projects') {
      this.backgroundOrder.delete(key)
      for (const child of children)
        if (child.key.startsWith(`${key}/`)) this.entities.delete(child.key)
    }
    if (entity.table === 'backgrounds') {
      const project = key.slice(0, key.lastIndexOf('/bg '))
      this.backgroundOrder.set(
        project,
        (this.backgroundOrder.get(project) ?? []).filter((bg) => bg !== key),
      )
      for (const child of children)
        if (child.key.startsWith(`${key}/`)) this.entities.delete(child.key)
    }
    // References the server sets to null when their target goes.
    const field =
      entity.table === 'department'
        ? 'department_id'
        : entity.table === 'location'
          ? 'location_id'
          : entity.table === 'specialist'
            ? 'specialist_id'
            : null
    if (field)
      for (const other of this.entities.values())
        if (other.fields[field] === key) other.fields[field] = null
  }

  addBackground(project: string, key: string) {
    this.backgroundOrder.set(project, [...(this.backgroundOrder.get(project) ?? []), key])
  }

  backgroundsOf(project: string): string[] {
    return this.backgroundOrder.get(project) ?? []
  }

  /** A project copy: the source's backgrounds and blocks as the person had them. */
  copyContent(source: string, copy: string) {
    for (const bg of this.backgroundsOf(source)) {
      const bgCopy = `${copy}${bg.slice(source.length)}`
      this.put('backgrounds', bgCopy, { ...this.entities.get(bg)!.fields })
      this.addBackground(copy, bgCopy)
    }
    for (const entity of [...this.entities.values()]) {
      if (entity.table !== 'blocks' || !entity.key.startsWith(`${source}/`)) continue
      this.put('blocks', `${copy}${entity.key.slice(source.length)}`, { ...entity.fields })
    }
  }

  copyName(source: string): string {
    return projectCopyName(String(this.entities.get(source)?.fields.name ?? ''))
  }

  /** Another device wrote `clashes` over the person's waiting values of `key`. */
  openConflict(table: string, key: string, clashes: Record<string, Clash>) {
    const open = this.conflicts.get(key) ?? { table, key, fields: {} }
    Object.assign(open.fields, clashes)
    this.conflicts.set(key, open)
    for (const [field, { theirs }] of Object.entries(clashes))
      this.written.set(`${key}.${field}`, [
        ...(this.written.get(`${key}.${field}`) ?? []),
        show(theirs),
      ])
  }

  /**
   * The person changed `fields` of `key` again (all of them: a block saved again, which carries
   * its whole state): their newer choice, no longer in question (docs/SYNC.md "Conflicts").
   */
  supersede(key: string | undefined, fields?: readonly string[]) {
    const open = key ? this.conflicts.get(key) : undefined
    if (!open) return
    const taken = fields && new Set(fields.flatMap((field) => fieldGroup(field)))
    for (const field of Object.keys(open.fields))
      if (!taken || taken.has(field)) delete open.fields[field]
    if (Object.keys(open.fields).length === 0) this.conflicts.delete(open.key)
  }

  /** The person decided `fields` of `key`: their own values, or the other device's. */
  decide(key: string, fields: readonly string[], choice: 'mine' | 'theirs') {
    const open = this.conflicts.get(key)
    if (!open) return
    const taken: Fields = {}
    for (const field of fields) if (field in open.fields) taken[field] = open.fields[field]!.theirs
    if (choice === 'theirs') this.patch(key, taken)
    this.supersede(key, fields)
  }

  /** A value as a report names it: whose it is when another device wrote it. */
  describe(key: string, field: string, value: unknown): string {
    const theirs = this.written.get(`${key}.${field}`)?.includes(show(value))
    return `${show(value)}${theirs ? ' (the other device’s)' : ''}`
  }

  hasProjectNamed(name: string): boolean {
    return [...this.entities.values()].some((e) => e.table === 'projects' && e.fields.name === name)
  }
}

/** Mirror rows by id, read afresh (the person acts on what the screen shows now). */
async function mirrorSide(world: SyncWorld, fileHash: Side['fileHash']): Promise<Side> {
  const tables = ['workspaces', 'projects', 'backgrounds', 'blocks', ...RECORD_KINDS]
  const rows = new Map<string, Map<unknown, Row>>()
  for (const table of tables) {
    const all = (await world.db.table(table).toArray()) as Row[]
    rows.set(table, new Map(all.map((row) => [row.id, row])))
  }
  return { name: 'mirror', byId: (table, id) => rows.get(table)?.get(id), fileHash }
}

/**
 * The person: runs the product's commands (as the screens do) and writes down what they meant.
 * Targets are picked by the scenario from the mirror, as a person picks from the screen.
 */
export class Person {
  constructor(
    readonly world: SyncWorld,
    readonly intent: Intent,
  ) {}

  private side() {
    return mirrorSide(this.world, async (url) =>
      localFileId(url) !== null ? `not uploaded ${url}` : `unknown file ${url}`,
    )
  }

  private async keyOf(table: string, id: number) {
    const side = await this.side()
    return this.intent.keyOf(table, side.byId(table, id), side)
  }

  private async normalize(table: string, fields: Fields) {
    return this.intent.normalize(table, fields, await this.side())
  }

  async uploadFile(blob: Blob): Promise<string> {
    const url = await uploadFile(blob)
    this.intent.files.set(url, sha(new Uint8Array(await blob.arrayBuffer())))
    return url
  }

  async createWorkspace(name: string) {
    const id = await createWorkspace(name)
    const key = `workspaces:${name}`
    this.intent.alias('workspaces', name, key)
    this.intent.put('workspaces', key, { name })
    return id
  }

  async renameWorkspace(id: number, name: string) {
    const key = await this.keyOf('workspaces', id)
    await renameWorkspace(id, name)
    if (key) this.intent.alias('workspaces', name, key)
    this.intent.patch(key, { name })
  }

  async deleteWorkspace(id: number) {
    const key = await this.keyOf('workspaces', id)
    await deleteWorkspace(id)
    this.intent.remove(key)
  }

  async createRecord(kind: RecordKind, workspaceId: number, fields: Fields) {
    const toggles = kind === 'amo' || kind === 'bitrix' || kind === 'specialist'
    const full = { workspace_id: workspaceId, ...(toggles ? { enabled: true } : {}), ...fields }
    const normalized = await this.normalize(kind, full)
    const id = await createRecord(kind, workspaceId, fields as never)
    this.intent.put(kind, `${kind}:${String(fields[RECORD_TAG[kind]])}`, normalized)
    return id
  }

  async updateRecord(kind: RecordKind, id: number, patch: Fields) {
    const key = await this.keyOf(kind, id)
    const normalized = await this.normalize(kind, patch)
    await updateRecord(kind, id, patch as never)
    this.intent.patch(key, normalized)
    this.intent.supersede(key, Object.keys(patch))
    // A record known by its name keeps being known by its new one.
    if (key && RECORD_TAG[kind] === 'name' && typeof patch.name === 'string')
      this.intent.alias(kind, patch.name, key)
  }

  async setRecordEnabled(kind: 'amo' | 'bitrix' | 'specialist', id: number, enabled: boolean) {
    const key = await this.keyOf(kind, id)
    await setRecordEnabled(kind, id, enabled)
    this.intent.patch(key, { enabled })
    this.intent.supersede(key, ['enabled'])
  }

  async deleteRecord(kind: RecordKind, id: number) {
    const key = await this.keyOf(kind, id)
    await deleteRecord(kind, id)
    this.intent.remove(key)
  }

  async createProject(workspaceId: number, name: string) {
    const workspace = await this.keyOf('workspaces', workspaceId)
    const id = await createProject(workspaceId, name)
    const key = `projects:${name}`
    this.intent.alias('projects', name, key)
    this.intent.put('projects', key, { workspace_id: workspace, name, type: null })
    return id
  }

  async renameProject(id: number, name: string) {
    const key = await this.keyOf('projects', id)
    await renameProject(id, name)
    if (key) this.intent.alias('projects', name, key)
    this.intent.patch(key, { name })
  }

  async setProjectType(id: number, type: 1 | 2) {
    const key = await this.keyOf('projects', id)
    await setProjectType(id, type)
    this.intent.patch(key, { type })
  }

  /** Copies a project as the app does (the server names the copy); undefined when skipped. */
  async copyProject(id: number): Promise<number | undefined> {
    const source = await this.keyOf('projects', id)
    if (!source) return undefined
    const name = this.intent.copyName(source)
    // Two copies of one name could not be told apart: the scenario does not make them.
    if (this.intent.hasProjectNamed(name)) return undefined
    // A copy waits while a block of its project waits on the person's choice, and then copies
    // what they chose (docs/SYNC.md "The replay protocol", step 4): the intent cannot say now
    // what the copy will hold, so the scenario does not copy such a project.
    if ([...this.intent.conflicts.keys()].some((key) => key.startsWith(`${source}/`)))
      return undefined
    const copyId = await copyProject(id)
    // An earlier copy renamed since is still known by the key its name gave.
    const key = this.intent.entities.has(`projects:${name}`)
      ? `projects:${name} #${copyId}`
      : `projects:${name}`
    this.intent.alias('projects', name, key)
    this.intent.alias('projects', `#${copyId}`, key)
    this.intent.put('projects', key, { ...this.intent.entities.get(source)!.fields, name })
    this.intent.copyContent(source, key)
    return copyId
  }

  async deleteProject(id: number) {
    const key = await this.keyOf('projects', id)
    await deleteProject(id)
    this.intent.remove(key)
  }

  async addBackground(projectId: number, blob: Blob, size: { width: number; height: number }) {
    const project = await this.keyOf('projects', projectId)
    const id = await addBackground(projectId, blob, size)
    if (project) {
      const key = `${project}/bg ${size.width}×${size.height}`
      this.intent.put('backgrounds', key, {
        width: size.width,
        height: size.height,
        image_url: sha(new Uint8Array(await blob.arrayBuffer())),
      })
      this.intent.addBackground(project, key)
    }
    return id
  }

  async deleteBackground(id: number) {
    const key = await this.keyOf('backgrounds', id)
    await deleteBackground(id)
    this.intent.remove(key)
  }

  /**
   * Saves blocks: a new block with every field; an edited one with the fields the person changed
   * against what the screen showed (a field they did not touch is not part of their intent).
   */
  async saveBlocks(blocks: (LocalBlock & { id?: number })[]) {
    const side = await this.side()
    const updates: [string | undefined, Fields][] = []
    for (const block of blocks) {
      const shown = block.id !== undefined ? side.byId('blocks', block.id) : undefined
      const bgKey = this.intent.keyOf('backgrounds', side.byId('backgrounds', block.bg_id), side)
      if (shown) {
        const changed: Fields = {}
        for (const [field, value] of Object.entries(block))
          if (JSON.stringify(shown[field]) !== JSON.stringify(value)) changed[field] = value
        const key = this.intent.keyOf('blocks', shown, side)
        updates.push([key, await this.intent.normalize('blocks', changed, side)])
        // A block saved again carries its whole state: the person's newer choice on every field
        // in question (docs/SYNC.md "Conflicts").
        this.intent.supersede(key)
      } else if (bgKey) {
        const key = `${bgKey}/${block.type} ${blockTag(block)}`
        updates.push([key, await this.intent.normalize('blocks', block, side)])
      }
    }
    const ids = await saveBlocks(blocks)
    for (const [key, fields] of updates) {
      if (!key) continue
      if (this.intent.entities.has(key)) this.intent.patch(key, fields)
      else this.intent.put('blocks', key, fields)
    }
    return ids
  }

  /** Keys of blocks another device changed: the person leaves them alone from then on. */
  readonly foreign = new Set<string>()

  async isForeign(table: 'blocks', id: number): Promise<boolean> {
    const key = await this.keyOf(table, id)
    return key !== undefined && this.foreign.has(key)
  }

  /**
   * Another device of the person's changes a saved block on the server directly: recolours it, or
   * deletes it. Returns what it did, or undefined when the block is not (yet) on the server.
   */
  async otherDeviceEdits(blockId: number, remove: boolean): Promise<string | undefined> {
    const side = await this.side()
    const shown = side.byId('blocks', blockId)
    const key = this.intent.keyOf('blocks', shown, side)
    if (!shown || !key || blockId < 0 || typeof shown.bg_id !== 'number' || shown.bg_id < 0)
      return undefined
    const response = await this.world.call('GET', '/api/project/get_items', undefined, {
      bg_id: shown.bg_id,
    })
    if (!response.ok) return undefined
    const current = ((await response.json()) as Row[]).find((b) => b.id === blockId)
    if (!current) return undefined
    const type = String(current.type)
    const widget = ['gift', 'price', 'subscribe'].includes(type)
    let answer: Response
    if (remove) {
      answer = await this.world.call(
        'POST',
        widget ? `/api/${type}/delete` : '/api/project/delete_item',
        { id: blockId },
      )
    } else {
      if (!('color' in current)) return undefined
      const color = '#0a0b0c'
      answer = await this.world.call('POST', widget ? `/api/${type}/update` : `/api/${type}/add`, {
        ...current,
        color,
      })
      if (answer.ok) this.intent.patch(key, { color })
    }
    if (!answer.ok) return undefined
    if (remove) this.intent.remove(key)
    this.foreign.add(key)
    return `${remove ? 'deleted' : 'recoloured'} ${key}`
  }

  /**
   * Another device writes `theirs` over fields the person has a change of waiting for (unsent, or
   * sent and unanswered), on the server directly and from the version that change started from
   * (`from`): the replay will meet a real `409` whose `current` is the other device's row
   * (docs/SYNC.md "Conflicts"). The intent holds a conflict from then on. Returns it, or why
   * nothing was written (the server is past that version: the person's change already reached it).
   */
  async otherDeviceConflicts(
    table: RecordKind | 'blocks',
    id: number,
    from: number,
    theirs: Fields,
  ): Promise<OpenConflict | string> {
    const side = await this.side()
    const shown = side.byId(table, id)
    const key = this.intent.keyOf(table, shown, side)
    const meant = key ? this.intent.entities.get(key) : undefined
    if (!shown || !key || !meant) return 'not a record the person has'
    let row: Row | undefined
    if (table === 'blocks') {
      const items = await this.world.call('GET', '/api/project/get_items', undefined, {
        bg_id: Number(shown.bg_id),
      })
      if (items.ok) row = ((await items.json()) as Row[]).find((b) => b.id === id)
    } else {
      const got = await this.world.call('GET', `/api/${table}/get`, undefined, { id })
      if (got.ok) row = (await got.json()) as Row
    }
    if (!row) return 'gone from the server'
    if (row.version !== from)
      return `the server is at version ${String(row.version)}, past ${from}: the person’s change reached it`
    const type = String(row.type)
    const path =
      table !== 'blocks'
        ? `/api/${table}/update`
        : ['gift', 'price', 'subscribe'].includes(type)
          ? `/api/${type}/update`
          : `/api/${type}/add`
    const body = table === 'blocks' ? { ...row, ...theirs } : { id, ...theirs }
    const answer = await this.world.call('POST', path, body, undefined, {
      'If-Match': String(from),
    })
    if (!answer.ok) return `refused ${answer.status}`
    const clashes: Record<string, Clash> = {}
    for (const field of Object.keys(theirs))
      clashes[field] = { mine: meant.fields[field], theirs: theirs[field] }
    if (RECORD_TAG[table as RecordKind] === 'name' && typeof theirs.name === 'string')
      this.intent.alias(table, theirs.name, key)
    this.intent.openConflict(table, key, clashes)
    return this.intent.conflicts.get(key)!
  }

  /** The intent's key of the record a queued entry names (by its client key). */
  async keyOfEntry(entry: OutboxEntry): Promise<string | undefined> {
    const row = await this.world.db.table(entry.table).where('ck').equals(entry.ck).first()
    return row ? this.keyOf(entry.table, (row as Row).id) : undefined
  }

  /** «Оставить моё» on a parked conflict: the person's values go again, over the other device's. */
  async keepMine(engine: SyncEngine, entry: OutboxEntry) {
    const key = await this.keyOfEntry(entry)
    await engine.retryEntry(entry.seq!)
    if (key) this.intent.decide(key, conflictFields(entry), 'mine')
  }

  /** «Взять с сервера»: the other device's values are the person's choice now. */
  async takeTheirs(engine: SyncEngine, entry: OutboxEntry) {
    const key = await this.keyOfEntry(entry)
    await engine.discardEntry(entry.seq!)
    if (key) this.intent.decide(key, conflictFields(entry), 'theirs')
  }

  /** «Повторить» on a refused change: it goes again under a new key, and is still meant. */
  async retryParked(engine: SyncEngine, entry: OutboxEntry) {
    await engine.retryEntry(entry.seq!)
  }

  /**
   * «Отменить изменение» on a refused change of a directory record: the edit is not meant any
   * more. A create takes the record away with what the person expects to go with it (a deleted
   * department clears its specialists' field); an update gives the fields it held back their
   * server values, which the app shows again (docs/SYNC.md "The replay protocol", step 7).
   */
  async discardParked(engine: SyncEngine, entry: OutboxEntry & { table: RecordKind }) {
    // The entry names its record by client key: its id now is the row's.
    const id = await idOfKey(this.world.db, entry.table, entry.ck)
    const key = await this.keyOf(entry.table, id)
    await engine.discardEntry(entry.seq!)
    if (entry.op === 'create') {
      this.intent.remove(key)
      return
    }
    const response = await this.world.call('GET', `/api/${entry.table}/get`, undefined, {
      id,
    })
    if (!response.ok) throw new Error(`${entry.table}/get ${response.status}`)
    const row = (await response.json()) as Fields
    const restored: Fields = {}
    for (const field of Object.keys(entry.payload))
      if (field !== 'id' && field in row) restored[field] = row[field]
    this.intent.patch(key, await this.normalize(entry.table, restored))
  }

  async deleteBlocks(ids: number[]) {
    const keys = await Promise.all(ids.map((id) => this.keyOf('blocks', id)))
    await deleteBlocks(ids)
    for (const key of keys) this.intent.remove(key)
  }
}

/** The fields a parked conflict names. */
export const conflictFields = (entry: OutboxEntry) =>
  entry.conflict?.fields.map((clash) => clash.field) ?? []

/** The state before the person acted: the server's rows, keyed the same way. */
export async function intentFromServer(
  intent: Intent,
  state: Record<string, Row[]>,
  side: Side,
): Promise<void> {
  for (const ws of state.workspaces ?? []) {
    const key = `workspaces:${String(ws.name)}`
    intent.alias('workspaces', String(ws.name), key)
    intent.put('workspaces', key, await intent.normalize('workspaces', ws, side))
  }
  for (const project of state.projects ?? []) {
    const key = `projects:${String(project.name)}`
    intent.alias('projects', String(project.name), key)
    intent.put('projects', key, await intent.normalize('projects', project, side))
  }
  for (const table of ['backgrounds', 'blocks', ...RECORD_KINDS]) {
    for (const row of state[table] ?? []) {
      const key = intent.keyOf(table, row, side)
      if (key) intent.put(table, key, await intent.normalize(table, row, side))
      if (key && table === 'backgrounds')
        intent.addBackground(key.slice(0, key.lastIndexOf('/bg ')), key)
    }
  }
}

/** A side over the server's lists (serverState), reading uploaded files through `world.call`. */
export function serverSide(world: SyncWorld, state: Record<string, Row[]>): Side {
  const rows = new Map<string, Map<unknown, Row>>()
  for (const [table, list] of Object.entries(state))
    rows.set(table, new Map(list.map((row) => [row.id, row])))
  const hashes = new Map<string, Promise<string>>()
  return {
    name: 'server',
    byId: (table, id) => rows.get(table)?.get(id),
    fileHash(url) {
      let hash = hashes.get(url)
      if (!hash) {
        hash = (async () => {
          const path = new URL(url, 'http://server').pathname
          const response = await world.call('GET', path)
          if (!response.ok) return `missing file ${url} (${response.status})`
          return sha(new Uint8Array(await response.arrayBuffer()))
        })()
        hashes.set(url, hash)
      }
      return hash
    },
  }
}

/**
 * Differences between the intent and one side (the server's lists, or the mirror read the same
 * way): rows the person did not make or kept deleted, rows they made that are missing, fields that
 * differ from what they last set, backgrounds out of the order they were added in.
 */
export async function compareWithIntent(
  intent: Intent,
  rowsByTable: Record<string, Row[]>,
  side: Side,
): Promise<string[]> {
  const problems: string[] = []
  const found = new Set<string>()
  for (const [table, rows] of Object.entries(rowsByTable)) {
    for (const row of rows) {
      const key = intent.keyOf(table, row, side)
      if (!key) {
        problems.push(
          `${side.name}: ${table} ${row.id} is nothing the person made ${JSON.stringify(row).slice(0, 160)}`,
        )
        continue
      }
      if (found.has(key)) {
        problems.push(`${side.name}: ${key} twice`)
        continue
      }
      found.add(key)
      const meant = intent.entities.get(key)
      if (!meant) {
        problems.push(`${side.name}: ${key} is there, the person did not keep it`)
        continue
      }
      const actual = await intent.normalize(table, row, side)
      for (const [field, value] of Object.entries(meant.fields)) {
        const open = intent.conflicts.get(key)?.fields[field]
        // Undecided: the server holds the other device's value, the device shows the person's.
        const expected = open && side.name === 'server' ? open.theirs : value
        if (show(actual[field]) === show(expected)) continue
        const is = `${side.name}: ${key}.${field} is ${intent.describe(key, field, actual[field])}`
        if (!open) problems.push(`${is}, the person meant ${show(value)}`)
        else if (side.name === 'mirror')
          problems.push(`${is}: the person’s ${show(open.mine)} shows until they decide`)
        else
          problems.push(
            `${is}: the other device’s ${show(open.theirs)} holds until the person decides on their ${show(open.mine)}` +
              (show(actual[field]) === show(open.mine)
                ? ' (settled silently for the person)'
                : ', a value nobody meant'),
          )
      }
    }
  }
  for (const key of intent.entities.keys())
    if (!found.has(key)) problems.push(`${side.name}: ${key} is missing (lost)`)
  // Backgrounds in the order the person added them.
  const byProject = new Map<string, Row[]>()
  for (const bg of rowsByTable.backgrounds ?? []) {
    const key = intent.keyOf('backgrounds', bg, side)
    if (!key) continue
    const project = key.slice(0, key.lastIndexOf('/bg '))
    byProject.set(project, [...(byProject.get(project) ?? []), bg])
  }
  for (const [project, bgs] of byProject) {
    const order = bgs
      .sort((a, b) => Number(a.position) - Number(b.position) || a.id - b.id)
      .map((bg) => intent.keyOf('backgrounds', bg, side))
    const meant = intent.backgroundsOf(project)
    if (JSON.stringify(order) !== JSON.stringify(meant))
      problems.push(
        `${side.name}: backgrounds of ${project} in order ${order.join(', ')}, meant ${meant.join(', ')}`,
      )
  }
  return problems
}

/**
 * Whether a parked conflict (`entry`, of the entity `key`) names what the intent holds in
 * question: each field with the person's value and the other device's. Returns the problems and
 * the fields it names rightly.
 */
export function clashProblems(
  intent: Intent,
  key: string,
  entry: OutboxEntry,
): { problems: string[]; found: string[] } {
  const problems: string[] = []
  const found: string[] = []
  if (entry.op === 'delete' || !entry.conflict?.fields.length)
    problems.push(`${key}: a conflict of its ${entry.op} waits that nobody had`)
  for (const clash of entry.conflict?.fields ?? []) {
    const meant = intent.conflicts.get(key)?.fields[clash.field]
    const names = `the person’s ${show(clash.mine)} against ${show(clash.theirs)}`
    if (!meant) problems.push(`${key}.${clash.field}: a conflict waits that nobody had (${names})`)
    else if (show(clash.mine) !== show(meant.mine) || show(clash.theirs) !== show(meant.theirs))
      problems.push(
        `${key}.${clash.field}: the conflict names ${names}; the person’s ${show(meant.mine)} and the other device’s ${show(meant.theirs)} were meant`,
      )
    else found.push(clash.field)
  }
  return { problems, found }
}

/** The row of `rowsByTable` that is the intent's entity `key`, if any. */
function rowOfKey(
  intent: Intent,
  rowsByTable: Record<string, Row[]>,
  table: string,
  key: string,
  side: Side,
): Row | undefined {
  return rowsByTable[table]?.find((row) => intent.keyOf(table, row, side) === key)
}

/**
 * The conflicts the person left undecided, against the parked conflicts the device holds
 * (`parked`, docs/SYNC.md "Conflicts"): each field in question waits there, naming the person's
 * value and the other device's; no conflict waits that nobody had. `server` tells which way a
 * conflict that is missing was settled silently. Returns the problems.
 */
export async function compareConflicts(
  intent: Intent,
  parked: readonly OutboxEntry[],
  mirror: { rows: Record<string, Row[]>; side: Side },
  server: { rows: Record<string, Row[]>; side: Side },
): Promise<string[]> {
  const problems: string[] = []
  const found = new Set<string>()
  for (const entry of parked) {
    const row = mirror.rows[entry.table]?.find((r) => r.ck === entry.ck)
    const key = intent.keyOf(entry.table, row, mirror.side)
    const named = clashProblems(intent, key ?? `${entry.table} ${entry.ck}`, entry)
    problems.push(...named.problems)
    for (const field of named.found) found.add(`${key}.${field}`)
  }
  for (const [key, open] of intent.conflicts) {
    if (!intent.entities.has(key)) continue
    const row = rowOfKey(intent, server.rows, open.table, key, server.side)
    const now = row ? await intent.normalize(open.table, row, server.side) : {}
    for (const [field, { mine, theirs }] of Object.entries(open.fields)) {
      if (found.has(`${key}.${field}`)) continue
      const held = show(now[field])
      const how =
        held === show(theirs)
          ? ' (settled silently for the server)'
          : held === show(mine)
            ? ' (settled silently for the person)'
            : ''
      problems.push(
        `${key}.${field}: no conflict waits on the device for the person’s ${show(mine)} against the other device’s ${show(theirs)}; the server holds ${intent.describe(key, field, now[field])}${how}`,
      )
    }
  }
  return problems
}

/** The mirror's rows of the tables the intent covers, as `compareWithIntent` takes them. */
export async function mirrorRows(world: SyncWorld): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {}
  for (const table of ['workspaces', 'projects', 'backgrounds', 'blocks', ...RECORD_KINDS])
    out[table] = (await world.db.table(table).toArray()) as Row[]
  return out
}

/** `server`: the server's side, when the caller has one (the files it read are not read again). */
export async function mirrorSideFor(
  world: SyncWorld,
  server = serverSide(world, {}),
): Promise<Side> {
  return mirrorSide(world, (url) =>
    localFileId(url) !== null ? Promise.resolve(`not uploaded ${url}`) : server.fileHash(url),
  )
}
