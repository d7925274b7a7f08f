import { SERVER_NODE_FLAGS } from '../../server/node-flags.ts'

/**
 * The Node options of a server a benchmark forks into a process of its own: those it is deployed
 * with (server/node-flags.ts), TypeScript through tsx, and `BENCH_CHILD_ARGS` (space-separated, for
 * a profiler's flags, say).
 */
export function serverExecArgv(): string[] {
  const extra = (process.env.BENCH_CHILD_ARGS ?? '').split(' ').filter((arg) => arg !== '')
  return [...SERVER_NODE_FLAGS, '--import', 'tsx', ...extra]
}
