/**
 * The server of `npm run bench requests` (tests/bench/requests-bench.ts), alone in its own Node
 * process as deployed, on PGlite in memory. Started with child_process.fork (`--import tsx`);
 * orders over IPC: `start` (with the delivery queue's settings: the fake CRMs' origin, rates,
 * timeouts), answered with its URL; `token` (a published page's form token as if the form had
 * been served ten seconds ago: the bench's visitors do not wait 3 s each), answered with it;
 * `deliver` (start the queue of a server started without it); `calibrate` (the mean `SELECT 1` on
 * the database's thread); `close`. It exits when the IPC channel goes.
 */
import { startServer, type RunningServer } from '../../server/index.ts'
import type { DeliverySettings } from '../../server/services/delivery.ts'

export type RequestsServerOrder =
  | { type: 'start'; delivery: DeliverySettings }
  | { type: 'token'; slug: string }
  | { type: 'deliver' }
  | { type: 'calibrate' }
  | { type: 'close' }

export type RequestsServerReport =
  | { type: 'started'; url: string }
  | { type: 'token'; token: string }
  | { type: 'delivering' }
  /** The mean time of `SELECT 1` on the database's thread: what this machine's speed is now. */
  | { type: 'calibrated'; selectMs: number }
  | { type: 'failed'; message: string }

let server: RunningServer | undefined
let offset = 0
const send = (report: RequestsServerReport) => process.send?.(report)

process.on('message', (order: RequestsServerOrder) => {
  void (async () => {
    try {
      if (order.type === 'start') {
        server = await startServer({
          port: 0,
          dataDir: 'memory',
          uploadSweepEveryMs: 0,
          now: () => Date.now() + offset,
          // The bench's 50 visitors share one address and one page.
          requestLimits: { perAddress: 1e9, perPage: 1e9 },
          delivery: order.delivery,
          // Built, as npm start runs it: this process may inherit the test runner's environment
          // (a smoke run), which would otherwise pick the source the runner compiles.
          pageRenderer: 'built',
        })
        send({ type: 'started', url: server.url })
      } else if (order.type === 'token') {
        offset = -10_000
        const token = server!.ready.services.formTokens.issue(order.slug)
        offset = 0
        send({ type: 'token', token })
      } else if (order.type === 'deliver') {
        // The queue of a server started with `enabled: false` starts now.
        server!.ready.services.deliveries.start()
        send({ type: 'delivering' })
      } else if (order.type === 'calibrate') {
        const { db } = server!.ready.services
        for (let i = 0; i < 200; i++) await db.query('SELECT 1')
        const started = performance.now()
        for (let i = 0; i < 2000; i++) await db.query('SELECT 1')
        send({ type: 'calibrated', selectMs: (performance.now() - started) / 2000 })
      } else {
        await server?.close()
        process.exit(0)
      }
    } catch (error) {
      send({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
    }
  })()
})
process.on('disconnect', () => process.exit(0))
process.on('SIGINT', () => undefined)
