/**
 * The mutators: one module per entity, each holding its local writes (one transaction: the row and
 * its outbox entry), the request an entry becomes, and how the answer is applied. The replay
 * engine (src/sync/engine.ts) sends each entry through `send` (send.ts).
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
export { send } from './send.ts'
