import type { SendEntry } from '../../data/entries.ts'
import { sendAppeal } from './appeals.ts'
import { sendBackground } from './backgrounds.ts'
import { sendBlock } from './blocks.ts'
import type { SendContext } from './context.ts'
import { sendFile } from './files.ts'
import { sendProject } from './projects.ts'
import { sendRecord } from './records.ts'
import { sendWorkspace } from './workspaces.ts'

/**
 * The mutators: one module per entity, each holding its local writes (one transaction: the row and
 * its outbox entry), the request an entry becomes, and how the answer is applied. The replay
 * engine (src/sync/engine.ts) sends each entry through `send`.
 */
export { deleteAppeal, setAppealStatus } from './appeals.ts'
export { addBackground, deleteBackground } from './backgrounds.ts'
export { deleteBlocks, saveBlocks } from './blocks.ts'
export { uploadFile } from './files.ts'
export {
  copyProject,
  createProject,
  deleteProject,
  renameProject,
  setProjectType,
} from './projects.ts'
export { publishProject, setProjectSlug, unpublishProject } from './publishing.ts'
export { createRecord, deleteRecord, setRecordEnabled, updateRecord } from './records.ts'
export {
  createWorkspace,
  deleteWorkspace,
  renameWorkspace,
  setCurrentWorkspace,
} from './workspaces.ts'
export { ParkError, type SendContext, type SyncApi } from './context.ts'

/** Steps 4–6 for one entry: its request, under its Idempotency-Key, and the answer applied. */
export function send(entry: SendEntry, ctx: SendContext): Promise<void> {
  switch (entry.table) {
    case 'workspaces':
      return sendWorkspace(entry, ctx)
    case 'projects':
      return sendProject(entry, ctx)
    case 'backgrounds':
      return sendBackground(entry, ctx)
    case 'blocks':
      return sendBlock(entry, ctx)
    case 'files':
      return sendFile(entry, ctx)
    case 'amo':
    case 'bitrix':
    case 'department':
    case 'location':
    case 'specialist':
      return sendRecord(entry, ctx)
    case 'appeal':
      return sendAppeal(entry, ctx)
  }
}
