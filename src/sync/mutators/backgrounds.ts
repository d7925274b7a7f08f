import * as v from 'valibot'
import { removeBackgroundContent } from '../../data/cascade.ts'
import { keyFromId } from '../../data/client-keys.ts'
import type { SendOf } from '../../data/entries.ts'
import { localFileUrl } from '../../data/ids.ts'
import { enqueue, nextFileId, nextLocalId } from '../../data/outbox.ts'
import { reconcile } from '../mirror.ts'
import { applyCreated, applyDeleted, inAll } from './apply.ts'
import { command, RecordId } from './command.ts'
import { ParkError, type SendContext } from './context.ts'
import { currentId, write } from './local.ts'
import { copyQueued, mayBeOnServer } from './projects.ts'
import { markPageChanged } from './page-changed.ts'

/**
 * Backgrounds (docs/API.md "Projects, backgrounds, uploads"): add_bg with the picture, delete_bg,
 * and the completion step of the block-save chain (docs/SYNC.md "The replay protocol") — the
 * local writes, and the requests their entries become.
 */

declare module '../../data/entries.ts' {
  interface EntryPayloads {
    backgrounds: {
      backgrounds: {
        /** add_bg, multipart with the picture waiting in `files` (`file`: its id there). */
        create: { project_id: number; file: number; width: number; height: number }
        delete: { project_id?: number }
        /** The completion step of the block-save chain: get_items, reconciled into the mirror. */
        complete: NoPayload
      }
    }
  }
}

/** Adds a background image; the file waits in `files` until add_bg replays. */
export function addBackground(
  projectId: number,
  file: Blob,
  size: { width: number; height: number },
): Promise<number> {
  return write(async (db) => {
    const id = await nextLocalId(db)
    const fileId = await nextFileId(db)
    await db.files.add({ id: fileId, blob: file, type: file.type, createdAt: Date.now() })
    const last = await db.backgrounds.where('project_id').equals(projectId).toArray()
    const position = last.reduce((max, bg) => Math.max(max, bg.position + 1), 0)
    await db.backgrounds.add({
      id,
      ck: keyFromId(id),
      project_id: projectId,
      image_url: localFileUrl(fileId),
      width: size.width,
      height: size.height,
      position,
    })
    await enqueue(db, {
      table: 'backgrounds',
      recordId: id,
      op: 'create',
      payload: { project_id: projectId, file: fileId, width: size.width, height: size.height },
    })
    await markPageChanged(db, projectId)
    return id
  })
}

export function deleteBackground(id: number): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, 'backgrounds', id)
    const row = await db.backgrounds.get(id)
    // A copy of its project waits in the outbox: the server must get the background and its blocks
    // first (the copy reads them there), and their delete after.
    const copied = row ? await copyQueued(db, row.project_id) : false
    await removeBackgroundContent(db, [id], { keepQueued: copied })
    await db.backgrounds.delete(id)
    await markPageChanged(db, row?.project_id ?? null)
    if (!(await mayBeOnServer(db, 'backgrounds', id))) return
    await enqueue(db, {
      table: 'backgrounds',
      recordId: id,
      op: 'delete',
      payload: row ? { project_id: row.project_id } : {},
    })
  })
}

export const backgroundCommands = {
  addBackground: command(
    v.tuple([RecordId, v.blob(), v.object({ width: v.number(), height: v.number() })]),
    addBackground,
  ),
  deleteBackground: command(v.tuple([RecordId]), deleteBackground),
}

export async function sendBackground(
  entry: SendOf<'backgrounds'>,
  ctx: SendContext,
): Promise<void> {
  const { db, api } = ctx
  const { recordId: id, key } = entry
  switch (entry.op) {
    case 'create': {
      const { project_id, file: fileId, width, height } = entry.payload
      const file = await db.files.get(fileId)
      if (!file?.blob) throw new ParkError('file_missing')
      const size = { width, height }
      const bg = await api.addBackground(project_id, file.blob, size, key, ctx.progressOf(file.id))
      await applyCreated(db, entry, 'backgrounds', bg)
      await db.files.update(file.id, { uploadedUrl: bg.image_url, blob: null })
      return
    }
    case 'delete':
      return applyDeleted(db, entry, () => api.deleteBackground(id, key))
    case 'complete': {
      // step 4 (end of the chain): the completion step reloads the stage's items and reconciles.
      const items = await api.getItems(id)
      await inAll(db, async () => {
        await db.outbox.delete(entry.seq!)
        // Deleted locally since (it waits only to be deleted on the server): nothing to show.
        if (!(await db.backgrounds.get(id))) return
        await reconcile(db, 'blocks', (t) => t.where('bg_id').equals(id).toArray(), items)
      })
      return
    }
  }
}
