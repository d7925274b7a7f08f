import type { OutboxTable, SendEntry, SendOf } from '../../data/entries.ts'
import { sendAppeal } from './appeals.ts'
import { sendBackground } from './backgrounds.ts'
import { sendBlock } from './blocks.ts'
import type { SendContext } from './context.ts'
import { sendFile } from './files.ts'
import { sendProject } from './projects.ts'
import { sendRecord } from './records.ts'
import { sendWorkspace } from './workspaces.ts'

/**
 * Steps 4–6 of the replay protocol (docs/SYNC.md), by entry table: the request an entry becomes and
 * how its answer is applied. Apart from the commands (index.ts) so that the service worker, which
 * only sends, takes this alone (load-eager.ts).
 */

type Sender<T extends OutboxTable> = (entry: SendOf<T>, ctx: SendContext) => Promise<void>

/** Each entry table's sender: an entry table without one does not type-check. */
const SENDERS: { [T in OutboxTable]: Sender<T> } = {
  workspaces: sendWorkspace,
  projects: sendProject,
  backgrounds: sendBackground,
  blocks: sendBlock,
  files: sendFile,
  amo: sendRecord,
  bitrix: sendRecord,
  department: sendRecord,
  location: sendRecord,
  specialist: sendRecord,
  appeal: sendAppeal,
}

/** Steps 4–6 for one entry: its request, under its Idempotency-Key, and the answer applied. */
export function send(entry: SendEntry, ctx: SendContext): Promise<void> {
  // TypeScript cannot tie `entry.table` to its sender's entry type: the sender is the entry's own.
  return (SENDERS[entry.table] as Sender<OutboxTable>)(entry, ctx)
}
