import type { Worker as NodeWorker } from 'node:worker_threads'
import { describe, expect, it, vi } from 'vitest'
import { openDatabase } from '../../server/db/database.ts'
import { startServer } from '../../server/start.ts'

// Every worker thread the server starts, kept, so a test can stop the database's as a crash would.
const workers = vi.hoisted(() => [] as NodeWorker[])
vi.mock('node:worker_threads', async (original) => {
  const real = await original<typeof import('node:worker_threads')>()
  class Recorded extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args)
      workers.push(this)
    }
  }
  return { ...real, default: { ...real, Worker: Recorded }, Worker: Recorded }
})

/**
 * PGlite runs on a thread of its own (server/db/pglite-thread.ts). If that thread stops while the
 * database is open (a WebAssembly trap, memory exhausted), whoever opened it is told once, and
 * every statement is refused instead of left waiting; `npm start` then exits for its supervisor.
 */
describe('the database thread stopping', () => {
  it('is reported once, and every statement after it is refused', async () => {
    const failures: Error[] = []
    const db = await openDatabase({ dataDir: 'memory', onFailure: (e) => failures.push(e) })
    expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    await workers.at(-1)!.terminate()
    await vi.waitFor(() => expect(failures).toHaveLength(1))
    expect(failures[0]!.message).toMatch(/database thread stopped/)
    await expect(db.query('SELECT 1')).rejects.toThrow(/database thread stopped/)
    await db.close()
    expect(failures).toHaveLength(1)
  })

  it('is not reported when the database is closed', async () => {
    const failures: Error[] = []
    const db = await openDatabase({ dataDir: 'memory', onFailure: (e) => failures.push(e) })
    await db.close()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(failures).toEqual([])
  })

  it('reaches the server’s owner (npm start exits on it)', async () => {
    const failures: Error[] = []
    const server = await startServer({
      port: 0,
      dataDir: 'memory',
      onDatabaseFailure: (e) => failures.push(e),
    })
    try {
      await workers.at(-1)!.terminate()
      await vi.waitFor(() => expect(failures).toHaveLength(1))
    } finally {
      await server.close()
    }
  })
})
