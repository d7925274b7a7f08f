import * as v from 'valibot'
import { BLOCK_TYPES, type Block, type BlockType } from '../../domain/block.ts'
import type { SendOf } from '../../data/entries.ts'
import { isLocalId } from '../../data/ids.ts'
import { enqueue, nextLocalId, resolveUploadedUrls } from '../../data/outbox.ts'
import type { BlockRow, ClientKey, LocalBlock } from '../../data/types.ts'
import { keyFromId } from '../../data/client-keys.ts'
import type { MirrorDb } from '../../data/db.ts'
import { applyCreated, applyDeleted, applyUpdated } from './apply.ts'
import { command, RecordId, shaped } from './command.ts'
import type { SendContext } from './context.ts'
import { currentId, startFrom, withCurrentRefs, write, ifMatchOf } from './local.ts'
import { markPageChanged, projectOfBackground } from './page-changed.ts'

/**
 * Blocks: the stage save is a chain (docs/SYNC.md "The replay protocol") — each changed block saved
 * one after another, then the completion step of its background (src/sync/mutators/backgrounds.ts).
 */

/** A block as saved: every field but the id (the entry's recordId). */
type BlockFields = Block extends infer B ? (B extends Block ? Omit<B, 'id'> : never) : never

declare module '../../data/entries.ts' {
  interface EntryPayloads {
    blocks: {
      /** The block-save chain: each changed block saved, then its background's `complete`. */
      blocks: { save: BlockFields; delete: { type: BlockType; bg_id: number } }
    }
  }
}

function blockLabel(block: LocalBlock): string {
  if ('name' in block && block.name) return block.name
  if ('text' in block && block.text) return block.text
  return ''
}

function sameBlock(a: object, b: object): boolean {
  const x = new Map(Object.entries(a))
  const y = new Map(Object.entries(b))
  for (const key of new Set([...x.keys(), ...y.keys()]))
    if (!Object.is(x.get(key), y.get(key))) return false
  return true
}

/** A block's fields without its id and key (what a save entry carries, what the server gets). */
function fieldsOf(row: BlockRow): BlockFields {
  const { id: _id, ck: _ck, ...fields } = row
  return fields
}

async function queueCompletion(db: MirrorDb, bgIds: Iterable<number>) {
  for (const bgId of bgIds) {
    // The project's published page no longer shows its blocks as they are.
    await markPageChanged(db, await projectOfBackground(db, bgId))
    await enqueue(db, {
      table: 'backgrounds',
      recordId: bgId,
      op: 'complete',
      payload: {},
    })
  }
}

/** A block named by its client key (the editor) or by its id (a key is looked up first). */
export type BlockRef = ClientKey | number

/** The mirror row a reference names now, if any: a key follows the block across its re-keying. */
async function rowOf(db: MirrorDb, ref: BlockRef): Promise<BlockRow | undefined> {
  if (typeof ref === 'string') return db.blocks.where('ck').equals(ref).first()
  return db.blocks.get(await currentId(db, 'blocks', ref))
}

/**
 * Upserts blocks and queues a save per changed block, then the completion step of every touched
 * background. A block is found by its client key `ck` when it has one (its id may be stale: the
 * server's id may have replaced it meanwhile), else by its id; one found nowhere is new and gets a
 * local id (under its `ck`, or a key made from that id). Unchanged blocks send nothing. Returns the
 * ids.
 */
export function saveBlocks(blocks: LocalBlock[]): Promise<number[]> {
  return write(async (db) => {
    const ids: number[] = []
    const touched = new Set<number>()
    for (const input of blocks) {
      const { ck, id: given, ...fields } = input
      const stored =
        ck !== undefined
          ? await rowOf(db, ck)
          : given !== undefined
            ? await rowOf(db, given)
            : undefined
      // A key found nowhere is a new block (or one deleted and brought back by an undo).
      const id =
        stored?.id ?? (ck === undefined && given !== undefined ? given : await nextLocalId(db))
      const block = await withCurrentRefs(db, 'blocks', await resolveUploadedUrls(db, fields))
      const row: BlockRow = { ...block, id, ck: ck ?? stored?.ck ?? keyFromId(id) }
      ids.push(id)
      if (stored && sameBlock(stored, row)) continue
      // A block is saved whole: the change starts from the whole block as it was.
      const start = stored ? startFrom(stored, Object.keys(fieldsOf(stored))) : {}
      await db.blocks.put(row)
      await enqueue(db, {
        table: 'blocks',
        recordId: id,
        op: 'save',
        payload: fieldsOf(row),
        label: blockLabel(row),
        ...start,
      })
      touched.add(row.bg_id)
    }
    await queueCompletion(db, touched)
    return ids
  })
}

export function deleteBlocks(refs: readonly BlockRef[]): Promise<void> {
  return write(async (db) => {
    const touched = new Set<number>()
    for (const ref of refs) {
      const row = await rowOf(db, ref)
      if (!row) continue
      await db.blocks.delete(row.id)
      await enqueue(db, {
        table: 'blocks',
        recordId: row.id,
        ck: row.ck,
        op: 'delete',
        payload: { type: row.type, bg_id: row.bg_id },
        label: blockLabel(row),
      })
      touched.add(row.bg_id)
    }
    await queueCompletion(db, touched)
  })
}

/** A block as the editor gives it: its type, its background, and its id or key if it has one. */
const LocalBlockShape = shaped<LocalBlock>(
  v.looseObject({
    type: v.picklist(BLOCK_TYPES),
    bg_id: RecordId,
    id: v.optional(RecordId),
    ck: v.optional(v.string()),
  }),
)

export const blockCommands = {
  saveBlocks: command(v.tuple([v.array(LocalBlockShape)]), saveBlocks),
  deleteBlocks: command(v.tuple([v.array(v.union([v.string(), RecordId]))]), deleteBlocks),
}

export async function sendBlock(entry: SendOf<'blocks'>, ctx: SendContext): Promise<void> {
  const { db, api } = ctx
  const { recordId: id, key } = entry
  switch (entry.op) {
    case 'save': {
      // step 4: the block-save chain. A local block is created (no id); a saved one is updated by
      // its id.
      if (isLocalId(id))
        return applyCreated(db, entry, 'blocks', await api.saveBlock(entry.payload, key))
      const saved = await api.saveBlock({ ...entry.payload, id }, key, ifMatchOf(entry))
      return applyUpdated(db, entry, 'blocks', saved)
    }
    case 'delete':
      return applyDeleted(db, entry, () => api.deleteBlock(entry.payload.type, id, key))
  }
}
