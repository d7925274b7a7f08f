/**
 * One process of the load matrix in tests/bench/server-bench.ts: a reference server instance, or
 * the bare `new Hono()` handler it is compared with, alone in its own Node process as
 * server/README.md deploys the server («PORT=8081 npm run serve & PORT=8082 npm run serve &»).
 * The bench starts it with child_process.fork (`--import tsx`) and gives its orders over IPC:
 * `start` (the server with the options sent, or the bare handler), answered with the URL it
 * serves on; `seed` (the server only: departments in a workspace through the server's own
 * database, since PGlite lives only inside this process), answered with their ids; `usage`,
 * answered with the CPU time the process has used (what a request costs the server, whatever
 * the client and the other processes on the machine cost); `close`, after
 * which the process exits. It never outlives the bench: when the IPC channel goes (the bench
 * exited or was killed) it exits too, and it leaves a Ctrl-C to the bench, which stops it.
 */
import { startServer, type StartOptions } from '../../server/index.ts'

/** What a server instance is started with: what can cross the IPC channel. */
export type InstanceOptions = Pick<
  StartOptions,
  'port' | 'dataDir' | 'uploadSweepEveryMs' | 'databaseUrl' | 'schema'
>

export type InstanceOrder =
  | { type: 'start'; role: 'server'; options: InstanceOptions }
  | { type: 'start'; role: 'bare' }
  | { type: 'seed'; workspaceId: number; departments: number }
  | { type: 'usage' }
  | { type: 'close' }

export type InstanceReport =
  | { type: 'started'; url: string }
  | { type: 'seeded'; ids: number[] }
  /** The CPU time this process has used so far (user and system), in microseconds. */
  | { type: 'usage'; cpuMicros: number }
  | { type: 'failed'; message: string }

interface Running {
  url: string
  seed?: (workspaceId: number, departments: number) => Promise<number[]>
  close: () => Promise<void>
}

/** A `new Hono()` answering a small JSON: what the machine, Node and the client cost alone. */
async function startBare(): Promise<Running> {
  const { Hono } = await import('hono')
  const { serve } = await import('@hono/node-server')
  const bare = new Hono()
  bare.get('/bare', (c) => c.json({ id: 1, name: 'Отделение', ok: true }))
  return new Promise((resolve) => {
    const server = serve(
      { fetch: bare.fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false },
      (info) =>
        resolve({
          url: `http://127.0.0.1:${info.port}`,
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done())
              if ('closeAllConnections' in server) server.closeAllConnections()
            }),
        }),
    )
  })
}

async function startInstance(options: InstanceOptions): Promise<Running> {
  // The built page renderer, as npm start runs it, even when started from a test runner's smoke run.
  const server = await startServer({ ...options, pageRenderer: 'built' })
  return {
    url: server.url,
    close: () => server.close(),
    async seed(workspaceId, departments) {
      const { rows } = await server.ready.services.db.query<{ id: number }>(
        `INSERT INTO departments (workspace_id, name, description)
         SELECT $1, 'Отделение ' || n, 'Описание отделения номер ' || n
         FROM generate_series(1, $2::int) n RETURNING id`,
        [workspaceId, departments],
      )
      return rows.map((row) => row.id)
    },
  }
}

const send = process.send?.bind(process)
if (!send) throw new Error('tests/bench/server-instance.ts runs as a child of the bench (fork)')
const report = (message: InstanceReport) => send(message)

let running: Running | undefined

async function obey(order: InstanceOrder): Promise<void> {
  switch (order.type) {
    case 'start':
      if (running) throw new Error('already started')
      running = order.role === 'bare' ? await startBare() : await startInstance(order.options)
      report({ type: 'started', url: running.url })
      return
    case 'seed':
      if (!running?.seed) throw new Error('nothing to seed')
      report({ type: 'seeded', ids: await running.seed(order.workspaceId, order.departments) })
      return
    case 'usage': {
      const { user, system } = process.cpuUsage()
      report({ type: 'usage', cpuMicros: user + system })
      return
    }
    case 'close':
      await running?.close()
      process.exit(0)
  }
}

process.on('message', (order: InstanceOrder) => {
  obey(order).catch((error: unknown) =>
    report({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  )
})
// The bench went away (exited, crashed, killed): so does this process.
process.on('disconnect', () => process.exit(0))
// A Ctrl-C reaches every process of the terminal's group: the bench stops this one itself.
process.on('SIGINT', () => undefined)
