import * as v from 'valibot'
import type { Database, Queryable } from '../db/database.ts'
import {
  DepartmentInput,
  DepartmentUpdate,
  LocationInput,
  LocationUpdate,
  SpecialistInput,
  SpecialistUpdate,
} from '../../src/domain/directory.ts'
import {
  AmoInput,
  AmoUpdate,
  BitrixInput,
  BitrixUpdate,
  isMasked,
  maskOptionalSecret,
  maskSecret,
  maskWebhookUrl,
} from '../../src/domain/integration.ts'
import { FieldCode } from '../../src/domain/validation.ts'
import * as store from '../storage/records.ts'
import type { RecordKind, RecordRow, WrittenRow } from '../storage/records.ts'
import { isMember } from '../storage/workspaces.ts'
import type { ChangeFeed } from './changes.ts'
import { AppError, type FieldProblem } from './errors.ts'
import { ListBody, ListCache, type ListEntry, type RowJson } from './list-cache.ts'
import { expectVersion } from './versions.ts'

interface KindRules {
  input: v.GenericSchema
  update: v.GenericSchema
  /** Fields never shown in full: masked on the way out, kept when sent back masked. */
  secrets: Record<string, (value: string) => string>
  /** Has disable/able. */
  toggles: boolean
  /** Reference fields that must point into the same workspace, and the kind they point at. */
  references: Record<string, RecordKind>
}

/**
 * What `add` takes: the shared schema, with the fields a record can do without made optional (a
 * field left out takes its column's default, '' or null) and, for kinds with disable/able,
 * `enabled` (default true). The app's forms send every field; other clients need not (docs/API.md).
 */
function addInput(
  schema: v.ObjectSchema<v.ObjectEntries, undefined>,
  optional: readonly string[],
  toggles: boolean,
): v.GenericSchema {
  const entries: v.ObjectEntries = { ...schema.entries }
  for (const field of optional) entries[field] = v.optional(schema.entries[field]!)
  if (toggles) entries.enabled = v.optional(v.boolean(FieldCode.invalidValue))
  return v.object(entries)
}

export const RECORD_RULES: Record<RecordKind, KindRules> = {
  amo: {
    input: addInput(AmoInput, ['redirect_uri'], true),
    update: AmoUpdate,
    secrets: { client_secret: maskSecret, long_lived_token: maskOptionalSecret },
    toggles: true,
    references: {},
  },
  bitrix: {
    input: addInput(BitrixInput, [], true),
    update: BitrixUpdate,
    secrets: { webhook_url: maskWebhookUrl },
    toggles: true,
    references: {},
  },
  department: {
    input: addInput(DepartmentInput, ['description'], false),
    update: DepartmentUpdate,
    secrets: {},
    toggles: false,
    references: {},
  },
  location: {
    input: addInput(LocationInput, ['address', 'phone'], false),
    update: LocationUpdate,
    secrets: {},
    toggles: false,
    references: {},
  },
  specialist: {
    input: addInput(
      SpecialistInput,
      ['position', 'department_id', 'location_id', 'phone', 'email', 'photo_url', 'description'],
      true,
    ),
    update: SpecialistUpdate,
    secrets: {},
    toggles: true,
    references: { department_id: 'department', location_id: 'location' },
  },
}

/**
 * Integrations and the directory: the same calls (add, list, get, update, delete, and for some
 * disable/able) over records that live in a workspace.
 */

const RECORD_KINDS = new Set<string>(Object.keys(store.RECORD_TABLES))

/** How many workspace lists' announced versions are remembered before they are all forgotten. */
const HEARD_MAX = 100_000

/** How many kept lists a user's `get` looks in (their latest confirmed), and for how many users. */
const CONFIRMED_PER_USER = 16
const CONFIRMED_USERS_MAX = 100_000

/** Rows as the client sees them, each as its JSON, in id order (list-cache.ts, ListBody). */
function rowsJson(rows: readonly RecordRow[]): RowJson[] {
  return rows.map((row) => ({ id: row.id, json: Buffer.from(JSON.stringify(row)) }))
}

export class RecordService {
  /** Lists answered lately, by kind and workspace, with the version they show. */
  private readonly lists = new ListCache()
  /**
   * PostgreSQL: the newest version announced for each list (`kind:workspace`) while listening. A
   * kept list older than that is not answered from memory.
   */
  private readonly heard = new Map<string, bigint>()
  /**
   * PostgreSQL: raised when announcements may have been missed (the listening connection failed)
   * and when a member is removed anywhere; a confirmation from an older epoch is not trusted.
   */
  private epoch = 0
  /**
   * The kept lists (`kind:workspace`) last confirmed for each user while listening, oldest first:
   * where their `get` looks before asking the database (rowFromMemory).
   */
  private readonly confirmedFor = new Map<number, Set<string>>()

  constructor(
    private readonly db: Database,
    private readonly feed?: ChangeFeed,
  ) {
    if (feed) {
      feed.onMessage((payload) => this.announced(payload))
      feed.onLost(() => this.epoch++)
    }
  }

  /** An announcement of the changes channel (migrations.ts): `w:<ws>:<kind>:<version>`, `w:<ws>:member:<user>`. */
  private announced(payload: string): void {
    const [scope, workspace, kind, value] = payload.split(':')
    if (scope !== 'w' || kind === undefined || value === undefined) return
    if (kind === 'member') {
      this.epoch++
      return
    }
    if (!RECORD_KINDS.has(kind) || !/^\d{1,19}$/.test(value)) return
    const key = `${kind}:${workspace}`
    const version = BigInt(value)
    const known = this.heard.get(key)
    if (known !== undefined && known >= version) return
    if (known === undefined && this.heard.size >= HEARD_MAX) {
      // Forgetting what was heard would let an older list pass: nothing kept is trusted after it.
      this.heard.clear()
      this.epoch++
    }
    this.heard.set(key, version)
  }

  /**
   * PostgreSQL: the kept list answers `userId` from memory, once every change committed before this
   * call has been heard (Listening.fence): it was confirmed for them in this listening epoch and is
   * not older than any version announced since. Undefined when the database must be asked.
   */
  private async fromMemory(key: string, userId: number): Promise<ListEntry | undefined> {
    const live = this.feed?.current
    const trusted = (entry: ListEntry | undefined) =>
      entry?.listening?.epoch === this.epoch &&
      entry.listening.members.has(userId) &&
      BigInt(entry.version) >= (this.heard.get(key) ?? 0n)
    if (!live || !trusted(this.lists.peek(key))) return undefined
    try {
      await live.fence()
    } catch {
      return undefined
    }
    // A write through this instance may have brought the kept list up to date meanwhile.
    const entry = this.lists.get(key)
    return this.feed?.current === live && trusted(entry) ? entry : undefined
  }

  /**
   * Taken before a read that confirms a list (PostgreSQL): whether what it confirms may be trusted
   * from memory afterwards (see `fromMemory`).
   */
  private listeningMark(): number | undefined {
    if (!this.feed) return undefined
    if (!this.feed.current) {
      // Not listening yet, or the connection failed: listen for the calls after this one.
      this.feed.start().catch(() => undefined)
      return undefined
    }
    return this.epoch
  }

  /** Notes that `entry`, kept as `key`, was found current for `userId` by a read sent in listening epoch `mark`. */
  private confirmedListening(
    key: string,
    entry: ListEntry,
    mark: number | undefined,
    userId: number,
  ): void {
    if (mark === undefined || mark !== this.epoch || !this.feed?.current) return
    if (entry.listening?.epoch !== mark) entry.listening = { epoch: mark, members: new Set() }
    entry.listening.members.add(userId)
    let keys = this.confirmedFor.get(userId)
    if (!keys) {
      if (this.confirmedFor.size >= CONFIRMED_USERS_MAX) this.confirmedFor.clear()
      this.confirmedFor.set(userId, (keys = new Set()))
    }
    keys.delete(key)
    keys.add(key)
    if (keys.size > CONFIRMED_PER_USER) keys.delete(keys.values().next().value!)
  }

  /**
   * Record `id` as the JSON its list shows, from a kept list that answers `userId` from memory
   * (fromMemory: confirmed for them, and nothing announced since says otherwise), newest first;
   * undefined when none of those lists has it, and the database must be asked. A list holds every
   * record of its workspace, so a record it shows is the record as it is now.
   */
  private async rowFromMemory(
    kind: RecordKind,
    userId: number,
    id: number,
  ): Promise<Uint8Array | undefined> {
    const keys = this.confirmedFor.get(userId)
    if (!keys) return undefined
    const prefix = `${kind}:`
    for (const key of [...keys].reverse()) {
      if (!key.startsWith(prefix)) continue
      const entry = await this.fromMemory(key, userId)
      const row = entry?.body.row(id)
      if (row) return row
    }
    return undefined
  }

  private present(kind: RecordKind, row: RecordRow): RecordRow {
    const out: RecordRow = { ...row }
    for (const [field, mask] of Object.entries(RECORD_RULES[kind].secrets)) {
      const value = out[field]
      if (typeof value === 'string') out[field] = mask(value)
    }
    return out
  }

  private async checkReferences(
    db: Queryable,
    kind: RecordKind,
    workspaceId: number,
    values: Record<string, unknown>,
  ): Promise<void> {
    const problems: Record<string, FieldProblem> = {}
    for (const [field, target] of Object.entries(RECORD_RULES[kind].references)) {
      const id = values[field]
      if (typeof id !== 'number') continue
      if (!(await store.recordInWorkspace(db, target, id, workspaceId))) {
        problems[field] = { code: 'unknown_reference' }
      }
    }
    if (Object.keys(problems).length > 0) throw AppError.validation(problems)
  }

  /** Whether `values` name other records (checked against the workspace before a write). */
  private refersToRecords(kind: RecordKind, values: Record<string, unknown>): boolean {
    return Object.keys(RECORD_RULES[kind].references).some(
      (field) => typeof values[field] === 'number',
    )
  }

  /**
   * A row this instance wrote, as the client sees it. When the write brought its workspace's list
   * to the version right after the one kept here, nobody else wrote in between: the kept list is
   * brought up to date in memory instead of being read again (a write with no row_version, or any
   * other step, leaves the kept list to be checked and read afresh).
   */
  private written(kind: RecordKind, written: WrittenRow): RecordRow {
    const { row_version: rowVersion, ...rest } = written
    const row = this.present(kind, rest as RecordRow)
    const key = `${kind}:${row.workspace_id}`
    const kept = this.lists.get(key)
    if (!kept || rowVersion === undefined || BigInt(kept.version) + 1n !== BigInt(rowVersion)) {
      return row
    }
    // The members it was confirmed for are still members: the write changed records only.
    const listening = kept.listening?.epoch === this.epoch ? kept.listening : undefined
    this.lists.set(key, {
      version: rowVersion,
      body: kept.body.withRows(rowsJson([row])),
      listening,
    })
    return row
  }

  private async owned(kind: RecordKind, id: number, userId: number): Promise<RecordRow> {
    const row = await store.findRecordForUser(this.db, kind, id, userId)
    if (!row) throw AppError.notFound()
    return row
  }

  /**
   * The workspace's records as JSON. The answer is kept in memory (a ListBody: the rows' JSON in
   * pieces, with its gzip once made) with the version of the records it shows; while the database
   * says that version (one small query, with the membership check, or from memory while
   * listening), it goes out again as it is. A list read from the database is written out row by
   * row (secrets masked), which is where its pieces come from.
   */
  async listJson(kind: RecordKind, userId: number, workspaceId: number): Promise<ListBody> {
    const key = `${kind}:${workspaceId}`
    const kept = this.lists.get(key)
    if (kept) {
      const heard = await this.fromMemory(key, userId)
      if (heard) return heard.body
      const listening = this.listeningMark()
      const current = this.lists.peek(key) ?? kept
      const since = await store.recordListChanges(
        this.db,
        kind,
        workspaceId,
        userId,
        current.version,
      )
      if (since === null) throw AppError.notFound()
      if (since.version === current.version) {
        this.confirmedListening(key, current, listening, userId)
        return current.body
      }
      // Another call may have brought the kept list to that version while this one asked: the
      // same rows, already made and perhaps already encoded (several calls follow a write at once).
      const latest = this.lists.peek(key)
      if (latest && latest !== current && latest.version === since.version) {
        this.confirmedListening(key, latest, listening, userId)
        return latest.body
      }
      // Written since (by another instance, or a statement of its own): the rows written since
      // the kept version go into the kept list, unless some row left it (a delete), which the
      // count tells: every row now is either kept or written since.
      const body = current.body.withRows(rowsJson(since.changed.map((r) => this.present(kind, r))))
      if (body.rowCount === since.count) {
        const entry: ListEntry = { version: since.version, body }
        this.confirmedListening(key, entry, listening, userId)
        this.lists.set(key, entry)
        return body
      }
    }
    const listening = this.listeningMark()
    const fresh = await store.listRecordsJsonForMember(this.db, kind, workspaceId, userId)
    if (fresh === null) throw AppError.notFound()
    // Written out row by row, in the pieces that later writes and gets find rows by.
    const rows = (JSON.parse(fresh.json) as RecordRow[]).map((r) => this.present(kind, r))
    // Pieces that came out as the kept list's are taken with their encoding (a delete).
    const body = ListBody.of(rowsJson(rows), this.lists.peek(key)?.body)
    const entry: ListEntry = { version: fresh.version, body }
    this.confirmedListening(key, entry, listening, userId)
    this.lists.set(key, entry)
    return entry.body
  }

  async get(kind: RecordKind, userId: number, id: number): Promise<RecordRow> {
    return this.present(kind, await this.owned(kind, id, userId))
  }

  /**
   * The record as the JSON the client is sent: from a kept list when one answers the user from
   * memory (rowFromMemory), otherwise from the database (`get`).
   */
  async getJson(kind: RecordKind, userId: number, id: number): Promise<Uint8Array | string> {
    return (
      (await this.rowFromMemory(kind, userId, id)) ??
      JSON.stringify(await this.get(kind, userId, id))
    )
  }

  /** `input` has been checked against RECORD_RULES[kind].input. */
  async add(
    kind: RecordKind,
    userId: number,
    input: { workspace_id: number } & Record<string, unknown>,
  ): Promise<RecordRow> {
    const { workspace_id: workspaceId, ...values } = input
    // Nothing to check but membership: one round trip does both.
    if (!this.refersToRecords(kind, values)) {
      const row = await store.insertRecordForMember(this.db, kind, workspaceId, userId, values)
      if (!row) throw AppError.notFound()
      return this.written(kind, row)
    }
    if (!(await isMember(this.db, userId, workspaceId))) throw AppError.notFound()
    await this.checkReferences(this.db, kind, workspaceId, values)
    return this.written(kind, await store.insertRecord(this.db, kind, workspaceId, values))
  }

  /**
   * Holds the row until the write's transaction ends and refuses the write when the row is not at
   * `expected` (docs/API.md, "Conditional writes"); nothing without it.
   */
  private expect(
    tx: Queryable,
    kind: RecordKind,
    id: number,
    userId: number,
    expected: number | undefined,
  ): Promise<void> {
    return expectVersion(tx, store.RECORD_TABLES[kind].table, id, expected, async (q) => {
      const row = await store.findRecordForUser(q, kind, id, userId)
      return row && this.present(kind, row)
    })
  }

  /** `input` has been checked against RECORD_RULES[kind].update. */
  async update(
    kind: RecordKind,
    userId: number,
    input: { id: number } & Record<string, unknown>,
    expected?: number,
  ): Promise<RecordRow> {
    const { id, ...values } = input
    for (const field of Object.keys(RECORD_RULES[kind].secrets)) {
      const value = values[field]
      // A secret left out, or sent back as the mask the client was shown, keeps its stored value.
      if (typeof value === 'string' && isMasked(value)) delete values[field]
    }
    if (expected === undefined && !this.refersToRecords(kind, values)) {
      const row = await store.updateRecordForUser(this.db, kind, id, userId, values)
      if (!row) throw AppError.notFound()
      return this.written(kind, row)
    }
    const current = await this.owned(kind, id, userId)
    await this.checkReferences(this.db, kind, current.workspace_id, values)
    const row = await this.db.transaction(async (tx) => {
      await this.expect(tx, kind, id, userId, expected)
      return store.updateRecord(tx, kind, id, values)
    })
    return this.written(kind, row)
  }

  async setEnabled(
    kind: RecordKind,
    userId: number,
    id: number,
    enabled: boolean,
    expected?: number,
  ): Promise<RecordRow> {
    if (expected === undefined) {
      const row = await store.updateRecordForUser(this.db, kind, id, userId, { enabled })
      if (!row) throw AppError.notFound()
      return this.written(kind, row)
    }
    await this.owned(kind, id, userId)
    const row = await this.db.transaction(async (tx) => {
      await this.expect(tx, kind, id, userId, expected)
      return store.updateRecord(tx, kind, id, { enabled })
    })
    return this.written(kind, row)
  }

  async delete(kind: RecordKind, userId: number, id: number, expected?: number): Promise<void> {
    await this.owned(kind, id, userId)
    await this.db.transaction(async (tx) => {
      await this.expect(tx, kind, id, userId, expected)
      if (kind === 'specialist') await store.clearSpecialistFromBlocks(tx, id)
      await store.deleteRecord(tx, kind, id)
    })
  }
}
