import { CHANGE_TABLES } from '../../src/domain/workspace.ts'
import type * as Live from '../../src/sync/live-events.ts'

/**
 * What shows each kind a change event names (docs/SYNC.md "Live changes"), by scope kind. Typed
 * over every table an event can name: a new kind does not compile until it is here.
 */
export const SHOWN_BY: Record<(typeof CHANGE_TABLES)[number], string[]> = {
  workspace: ['workspaces'],
  amo: ['amo'],
  bitrix: ['bitrix'],
  department: ['department'],
  location: ['location'],
  specialist: ['specialist'],
  project: ['project', 'projects'],
  background: ['project', 'projects'],
  block: ['project', 'projects'],
  appeal: ['appeal'],
}

const OPS = ['add', 'update', 'delete'] as const
const WORKSPACE = 7

/**
 * The page's handling of live changes, kind by kind and operation by operation, as the page does
 * it (src/sync/client.ts): every change of every kind comes on one stream, read by
 * `listenToWorkspace`, and each must touch the scopes that show its kind, asking the mirror first
 * whether it holds the change already (`heardChange`). `live` is the module
 * (tests/integration/soak-mutants.test.ts plants a bug in it). Returns the problems, each naming
 * the kind and the operation it concerns.
 */
export async function liveKindProblems(live: typeof Live): Promise<string[]> {
  const sent = CHANGE_TABLES.flatMap((table, t) =>
    OPS.map((op, o) => ({ table, op, id: 100 + t * 10 + o, version: 2 })),
  )
  const messages = sent.map(
    (event, i) =>
      `id: ${i + 1}\ndata: ${JSON.stringify({ ...event, project_id: 4, bg_id: 3 })}\n\n`,
  )
  // The page hears account news on the same stream: it ends the test's wait.
  messages.push('id: 999\nevent: invitations\ndata: {}\n\n')
  const heard: Live.LiveChange[] = []
  let ended!: () => void
  const end = new Promise<void>((resolve) => (ended = resolve))
  let opened = 0
  const stop = live.listenToWorkspace({
    workspaceId: WORKSPACE,
    onChange: (event) => heard.push(event),
    onReset: () => undefined,
    onAccount: () => ended(),
    random: () => 0,
    open: () => {
      opened += 1
      const chunks = opened === 1 ? messages : []
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
        },
      })
      return Promise.resolve(
        new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }),
      )
    },
  })
  const late = setTimeout(ended, 5_000)
  await end
  clearTimeout(late)
  stop()
  const problems: string[] = []
  const kinds = (scopes: { kind: string }[]) =>
    scopes
      .map((scope) => scope.kind)
      .sort()
      .join(', ') || 'nothing'
  for (const event of sent) {
    const what = `a ${event.table} ${event.op} event`
    const got = heard.find((e) => e.table === event.table && e.id === event.id)
    if (!got) {
      problems.push(`${what} never reached the page: it refreshes nothing of ${event.table}`)
      continue
    }
    const { scopes, ask } = live.heardChange(got, WORKSPACE)
    const meant = [...SHOWN_BY[event.table]].sort().join(', ')
    if (kinds(scopes) !== meant)
      problems.push(`${what} from another device refreshes ${kinds(scopes)}, meant ${meant}`)
    const asked = ask && `${ask.table} ${ask.id} ${ask.op} at ${ask.version}`
    if (asked !== `${event.table} ${event.id} ${event.op} at ${event.version}`)
      problems.push(`${what} is not asked of the mirror as it came (${asked ?? 'not asked'})`)
  }
  return problems
}
