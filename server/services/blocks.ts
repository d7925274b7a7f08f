import type { Database, Queryable } from '../db/database.ts'
import { BLOCK_SCHEMAS, domainOf, type BlockType, type SavedBlock } from '../../src/domain/block.ts'
import { BlockSaveRef } from '../../src/domain/requests.ts'
import { parseInput } from './validate.ts'
import * as store from '../storage/projects.ts'
import { recordInWorkspace } from '../storage/records.ts'
import { BLOCK_DEFAULTS } from './block-defaults.ts'
import { AppError } from './errors.ts'
import { expectVersion } from './versions.ts'

/** `/add` creates, or updates when the body holds an id; `/update` requires the id. */
export type SaveMode = 'upsert' | 'update'

function present(row: store.BlockRow): SavedBlock {
  return {
    ...row.data,
    id: row.id,
    bg_id: row.bg_id,
    type: row.type,
    version: row.version,
  } as SavedBlock
}

export class BlockService {
  constructor(private readonly db: Database) {}

  /** Conditional writes (docs/API.md): the block as get_items answers it when refused. */
  private expect(tx: Queryable, userId: number, id: number, expected: number | undefined) {
    return expectVersion(tx, 'blocks', id, expected, async (q) => {
      const block = await store.findBlockForUser(q, id, userId)
      return block && present(block)
    })
  }

  async list(userId: number, bgId: number): Promise<SavedBlock[]> {
    const bg = await store.findBackgroundForUser(this.db, bgId, userId)
    if (!bg) throw AppError.notFound()
    return (await store.listBlocks(this.db, bgId)).map(present)
  }

  /**
   * Saves a block. An update merges the body over the stored block, so fields left out keep their
   * values; the merged block is then checked whole against the shared schema of its type. A new
   * block takes BLOCK_DEFAULTS for the fields it leaves out.
   */
  async save(
    userId: number,
    type: BlockType,
    body: unknown,
    mode: SaveMode,
    expected?: number,
  ): Promise<SavedBlock> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw AppError.validation({ _: { code: 'not_object' } })
    }
    const ref = parseInput(BlockSaveRef, body)
    if (ref.type !== undefined && ref.type !== type) {
      throw AppError.validation({ type: { code: 'type_mismatch' } })
    }
    const id = ref.id ?? undefined
    if (mode === 'update' && id === undefined) {
      throw AppError.validation({ id: { code: 'required' } })
    }
    let existing: store.BlockAccess | null = null
    if (id !== undefined) {
      existing = await store.findBlockForUser(this.db, id, userId)
      if (!existing) throw AppError.notFound()
      if (existing.type !== type) throw AppError.conflict('block_type_conflict')
      // The merge below starts from the stored block: it must be the version the client edited.
      if (expected !== undefined && existing.version !== expected) {
        throw AppError.versionConflict(present(existing))
      }
    }
    const merged: Record<string, unknown> = existing
      ? { ...existing.data, bg_id: existing.bg_id, ...body, type }
      : { ...BLOCK_DEFAULTS[type], ...body, type }
    delete merged.id
    // The version is the server's to set (docs/API.md, "Versions"), never stored in the data.
    delete merged.version
    // Fields of the type's own that follow from others (a price's number from its text).
    const domain = domainOf(type)
    domain.derive?.(merged, body)
    const block = parseInput(BLOCK_SCHEMAS[type], merged)
    const bg = await store.findBackgroundForUser(this.db, block.bg_id, userId)
    if (!bg) throw AppError.notFound()
    // A directory record a block names (a subscribe block's specialist) is of its workspace.
    for (const [field, kind] of Object.entries(domain.references ?? {})) {
      const id = (block as Record<string, unknown>)[field]
      if (typeof id !== 'number' || !kind) continue
      const ok = await recordInWorkspace(this.db, kind, id, bg.workspace_id)
      if (!ok) throw AppError.validation({ [field]: { code: 'unknown_reference' } })
    }
    const { id: _id, bg_id: bgId, type: _type, version: _version, ...data } = block
    return this.db.transaction(async (tx) => {
      if (existing) await this.expect(tx, userId, existing.id, expected)
      const row = existing
        ? await store.updateBlock(tx, existing.id, bgId, data)
        : await store.insertBlock(tx, bgId, type, data)
      await store.touchProject(tx, bg.project_id)
      if (existing && existing.project_id !== bg.project_id) {
        await store.touchProject(tx, existing.project_id)
      }
      return present(row)
    })
  }

  /** Deletes a block of one of the allowed types; another type reads as unknown (404). */
  async delete(
    userId: number,
    id: number,
    allowed: readonly BlockType[],
    expected?: number,
  ): Promise<void> {
    const block = await store.findBlockForUser(this.db, id, userId)
    if (!block || !allowed.includes(block.type)) throw AppError.notFound()
    await this.db.transaction(async (tx) => {
      await this.expect(tx, userId, id, expected)
      await store.deleteBlock(tx, id)
      await store.touchProject(tx, block.project_id)
    })
  }
}
