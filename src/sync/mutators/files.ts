import * as v from 'valibot'
import { rewriteFileUrl } from '../../data/cascade.ts'
import type { SendOf } from '../../data/entries.ts'
import { localFileUrl } from '../../data/ids.ts'
import { enqueue, nextFileId } from '../../data/outbox.ts'
import { applyDone, inAll } from './apply.ts'
import { command } from './command.ts'
import { ParkError, type SendContext } from './context.ts'
import { write } from './local.ts'

/**
 * Uploads (image/upload, docs/API.md "Projects, backgrounds, uploads"): the local write, and the
 * request its entry becomes.
 */

declare module '../../data/entries.ts' {
  interface EntryPayloads {
    files: {
      /** image/upload of the file (the entry's recordId), then every `local-file:<n>` rewritten. */
      files: { upload: NoPayload }
    }
  }
}

/**
 * Keeps an image in IndexedDB and returns `local-file:<n>`, usable at once (`useFileUrl`). The
 * worker uploads it first when the network allows and rewrites every field holding that url.
 */
export function uploadFile(file: Blob): Promise<string> {
  return write(async (db) => {
    const fileId = await nextFileId(db)
    await db.files.add({ id: fileId, blob: file, type: file.type, createdAt: Date.now() })
    await enqueue(db, { table: 'files', recordId: fileId, op: 'upload', payload: {} })
    return localFileUrl(fileId)
  })
}

export const fileCommands = {
  uploadFile: command(v.tuple([v.blob()]), uploadFile),
}

export async function sendFile(entry: SendOf<'files'>, ctx: SendContext): Promise<void> {
  const { db, api } = ctx
  const id = entry.recordId
  const file = await db.files.get(id)
  if (!file?.blob) {
    if (file?.uploadedUrl) return applyDone(db, entry)
    throw new ParkError('file_missing')
  }
  const { url } = await api.uploadImage(file.blob, entry.key, ctx.progressOf(id))
  await inAll(db, async () => {
    await db.outbox.delete(entry.seq!)
    await rewriteFileUrl(db, id, url)
    await db.files.update(id, { uploadedUrl: url, blob: null })
  })
}
