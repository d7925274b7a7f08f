import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../../server/start.ts'
import { ensureBuilt, type Build } from '../e2e/global-setup.ts'

/** The reference server a browser benchmark runs against. */
export interface BenchServer {
  url: string
  close(): Promise<void>
}

/**
 * A reference server of the benchmark's own, started in this process over a build (built first
 * when missing or stale) with a throwaway database and no demo accounts; or, given `baseUrl`, the
 * one already running there over the test build (the browser journeys' server, which the smoke runs
 * use: a database opened fewer). Sign-ins are not limited: a benchmark signs in again and again.
 */
export async function benchServer(
  build: Build,
  label: string,
  baseUrl?: string,
): Promise<BenchServer> {
  if (baseUrl) return { url: baseUrl, close: async () => undefined }
  const staticDir = ensureBuilt(build)
  const dataDir = await mkdtemp(join(tmpdir(), `${label}-bench-`))
  try {
    const server = await startServer({
      port: 0,
      staticDir,
      dataDir,
      seed: false,
      loginLimit: { attempts: 1000, windowMs: 60_000 },
      // Built, as npm start runs it, even under the test runner, whose browser project does not
      // compile the app's source the way the page renderer needs.
      pageRenderer: 'built',
    })
    return {
      url: server.url,
      async close() {
        await server.close()
        await rm(dataDir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
}
