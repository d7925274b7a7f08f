import type { BlockFields, EntryOf } from '../../data/entries.ts'
import { isLocalId } from '../../data/ids.ts'
import { enqueue, nextLocalId, resolveUploadedUrls } from '../../data/outbox.ts'
import type { BlockRow, LocalBlock } from '../../data/types.ts'
import type { MirrorDb } from '../../data/db.ts'
import { applyCreated, applyDeleted, applyUpdated } from './apply.ts'
import type { SendContext } from './context.ts'
import { currentId, withCurrentRefs, write } from './local.ts'

/**
 * Blocks: the stage save (spec §4 "saving the stage is a chain") — each changed block saved one
 * after another, then the completion step of its background (src/sync/mutators/backgrounds.ts).
 */

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

/** A block's fields without its id (what a save entry carries). */
function fieldsOf(row: BlockRow): BlockFields {
  const { id: _id, ...fields } = row
  return fields
}

async function queueCompletion(db: MirrorDb, bgIds: Iterable<number>) {
  for (const bgId of bgIds) {
    await enqueue(db, {
      table: 'backgrounds',
      recordId: bgId,
      op: 'complete',
      payload: { bg_id: bgId },
    })
  }
}

/**
 * Upserts blocks (no id → a new local id) and queues a save per changed block, then the
 * completion step of every touched background. Unchanged blocks send nothing. Returns the ids.
 */
export function saveBlocks(blocks: LocalBlock[]): Promise<number[]> {
  return write(async (db) => {
    const ids: number[] = []
    const touched = new Set<number>()
    for (const input of blocks) {
      const known =
        input.id === undefined ? input : { ...input, id: await currentId(db, 'blocks', input.id) }
      const block = await withCurrentRefs(db, 'blocks', await resolveUploadedUrls(db, known))
      const id = block.id ?? (await nextLocalId(db))
      ids.push(id)
      const row: BlockRow = { ...block, id }
      const stored = block.id === undefined ? undefined : await db.blocks.get(id)
      if (stored && sameBlock(stored, row)) continue
      await db.blocks.put(row)
      await enqueue(db, {
        table: 'blocks',
        recordId: id,
        op: 'save',
        payload: fieldsOf(row),
        label: blockLabel(block),
      })
      touched.add(row.bg_id)
    }
    await queueCompletion(db, touched)
    return ids
  })
}

export function deleteBlocks(ids: number[]): Promise<void> {
  return write(async (db) => {
    const touched = new Set<number>()
    for (const known of ids) {
      const id = await currentId(db, 'blocks', known)
      const row = await db.blocks.get(id)
      if (!row) continue
      await db.blocks.delete(id)
      await enqueue(db, {
        table: 'blocks',
        recordId: id,
        op: 'delete',
        payload: { type: row.type, bg_id: row.bg_id },
        label: blockLabel(row),
      })
      touched.add(row.bg_id)
    }
    await queueCompletion(db, touched)
  })
}

export async function sendBlock(entry: EntryOf<'blocks'>, ctx: SendContext): Promise<void> {
  const { db, api } = ctx
  const { recordId: id, key } = entry
  switch (entry.op) {
    case 'save': {
      // step 4: the block-save chain. A local block is created (no id); a saved one is updated by
      // its id.
      if (isLocalId(id))
        return applyCreated(db, entry, 'blocks', await api.saveBlock(entry.payload, key))
      return applyUpdated(db, entry, 'blocks', await api.saveBlock({ ...entry.payload, id }, key))
    }
    case 'delete':
      return applyDeleted(db, entry, () => api.deleteBlock(entry.payload.type, id, key))
  }
}
