import { appealCommands } from './appeals.ts'
import { backgroundCommands } from './backgrounds.ts'
import { blockCommands } from './blocks.ts'
import { runChecked, type CommandTable } from './command.ts'
import { fileCommands } from './files.ts'
import { projectCommands } from './projects.ts'
import { publishingCommands } from './publishing.ts'
import { recordCommands } from './records.ts'
import { workspaceCommands } from './workspaces.ts'

/**
 * The mutators (docs/SYNC.md, "Adding a command"): one module per entity, each holding its
 * commands (the schema of their arguments and their local write: one transaction, the row and its
 * outbox entry), its entries' operations (its part of `EntryPayloads`, data/entries.ts), the
 * request an entry becomes, and how the answer is applied. The worker runs a command through
 * `run`; the replay engine (src/sync/engine.ts) sends each entry through `send`.
 */
export const COMMANDS = {
  ...workspaceCommands,
  ...recordCommands,
  ...projectCommands,
  ...publishingCommands,
  ...backgroundCommands,
  ...blockCommands,
  ...fileCommands,
  ...appealCommands,
} satisfies CommandTable

export type WriteName = keyof typeof COMMANDS
/** The page's view of the commands: each name and its local write's signature. */
export type WriteCommands = { [N in WriteName]: (typeof COMMANDS)[N]['run'] }

/** Runs the command `name` with the page's arguments, once they pass its schema. */
export function run(name: WriteName, args: readonly unknown[]): Promise<unknown> {
  if (!Object.hasOwn(COMMANDS, name)) return Promise.reject(new Error(`no command ${name}`))
  return runChecked(name, COMMANDS[name], args)
}

export { send } from './send.ts'
export { ParkError, type SendContext, type SyncApi } from './context.ts'
