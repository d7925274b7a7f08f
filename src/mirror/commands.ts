import type { CommandName, Commands } from '../sync/service.ts'
import { runCommand } from './port.ts'

/**
 * Every command the page may send (docs/SYNC.md, "Adding a command"): the writes of the mutators
 * (src/sync/mutators/index.ts, `COMMANDS`) and the session's (src/sync/service.ts). Checked both
 * ways: a command missing here, or named here but defined nowhere, does not type-check.
 */
const NAMES = {
  setCurrentWorkspace: true,
  createWorkspace: true,
  renameWorkspace: true,
  deleteWorkspace: true,
  createRecord: true,
  updateRecord: true,
  deleteRecord: true,
  setRecordEnabled: true,
  createProject: true,
  renameProject: true,
  setProjectType: true,
  copyProject: true,
  deleteProject: true,
  publishProject: true,
  unpublishProject: true,
  setProjectSlug: true,
  addBackground: true,
  deleteBackground: true,
  saveBlocks: true,
  deleteBlocks: true,
  uploadFile: true,
  setAppealStatus: true,
  deleteAppeal: true,
  storeAuthToken: true,
  unsyncedCount: true,
  claimMirror: true,
} satisfies Record<CommandName, true>

/**
 * The mirror's commands for the page (`commands.createRecord(…)`): each writes the local record
 * and queues it for the server in one transaction where the database lives (src/sync/mutators/),
 * and resolves once it is stored. Same names and signatures as there.
 */
export const commands = Object.fromEntries(
  (Object.keys(NAMES) as CommandName[]).map((name) => [
    name,
    (...args: unknown[]) => runCommand(name, args),
  ]),
) as unknown as Commands
