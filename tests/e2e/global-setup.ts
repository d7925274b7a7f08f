import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { DEMO_ACCOUNTS } from '../../server/seed.ts'
import { startServer } from '../../server/start.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const DIST = join(ROOT, 'dist')
const PAGE_RENDERER = join(ROOT, 'dist-page', 'render.js')
/** What the build reads: a change in any of these makes dist/ stale. */
const SOURCES = [
  'src',
  'workers',
  'public',
  'index.html',
  'vite.config.ts',
  'vite.page.config.ts',
  'package.json',
  'lingui.config.ts',
]

export interface DemoAccount {
  name: string
  email: string
  password: string
  role: 'admin' | 'editor'
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the reference server that serves the built app and the API. */
    baseUrl: string
    /** The seeded demo accounts (admin first, then editor). */
    accounts: DemoAccount[]
  }
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0
  const info = statSync(path)
  if (!info.isDirectory()) return info.mtimeMs
  let newest = info.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)))
  return newest
}

/**
 * The two builds: `production` is what `npm run build` makes and ships (dist/); `test` is the same
 * production build with the test hooks compiled in (`VITE_TEST_HOOKS=1`: the editor canvas's
 * `window.__promoEditorCanvas`, `data-renderer` and `data-frames`), in dist-test/. Journeys and the
 * canvas benchmarks run on the test build; the shipped bundle has none of the hooks
 * (tests/e2e/test-hooks.e2e.ts).
 */
export type Build = 'production' | 'test'
export const BUILD_DIRS: Record<Build, string> = {
  production: DIST,
  test: join(ROOT, 'dist-test'),
}

/** CI builds before `npm test`; a newcomer may not have, or may have edited sources since. */
export function ensureBuilt(build: Build = 'production'): string {
  const dir = BUILD_DIRS[build]
  const built = join(dir, 'index.html')
  // The production build includes the published pages' renderer (dist-page/, docs/publishing.md).
  const complete =
    existsSync(built) &&
    existsSync(join(dir, 'sw.js')) &&
    (build === 'test' || existsSync(PAGE_RENDERER))
  const builtAt = complete ? statSync(built).mtimeMs : 0
  const changedAt = Math.max(...SOURCES.map((s) => newestMtime(join(ROOT, s))))
  if (builtAt > changedAt) return dir
  const name = build === 'test' ? 'dist-test/' : 'dist/'
  console.log(builtAt ? `${name} is older than the sources: building…` : `No ${name}: building…`)
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js')
  const args = [vite, 'build', '--logLevel', 'warn', '--outDir', dir]
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' }
  // Vite reads VITE_* variables from the environment (docs/editor.md "Test hooks").
  if (build === 'test') env.VITE_TEST_HOOKS = '1'
  else delete env.VITE_TEST_HOOKS
  const result = spawnSync(process.execPath, args, {
    cwd: ROOT,
    stdio: 'inherit',
    // Vitest sets NODE_ENV=test, which would make Vite build React's development bundle and
    // leave out the service worker registration (import.meta.env.PROD false).
    env,
  })
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`)
  if (build === 'production') {
    const page = spawnSync(
      process.execPath,
      [vite, 'build', '--logLevel', 'warn', '--config', join(ROOT, 'vite.page.config.ts')],
      { cwd: ROOT, stdio: 'inherit', env },
    )
    if (page.status !== 0) throw new Error(`page renderer build failed (exit ${page.status})`)
  }
  return dir
}

/**
 * Builds the app when needed (both builds), starts the reference server in this process on a free
 * port over the test build with a throwaway PGlite database seeded with the demo accounts, and
 * hands its URL to the journeys.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The shipped build too: the hooks check greps it, and update.e2e.ts deploys it.
  ensureBuilt('production')
  const staticDir = ensureBuilt('test')
  const dataDir = await mkdtemp(join(tmpdir(), 'promo-e2e-data-'))
  const server = await startServer({
    port: 0,
    staticDir,
    dataDir,
    seed: true,
    // The built renderer, as npm start runs it (this process is not the test runner's worker).
    pageRenderer: 'built',
    // Journeys sign in many times from one address; the limiter has its own server tests.
    loginLimit: { attempts: 1000, windowMs: 60_000 },
  })
  project.provide('baseUrl', server.url)
  project.provide(
    'accounts',
    DEMO_ACCOUNTS.map((account) => ({ ...account })),
  )
  return async () => {
    await server.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}
