import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '../..')

/** `initial_js_gzip_kib`: the gzipped JavaScript a first visit to /projects downloads. */
export async function runBundleBench(): Promise<Record<string, number>> {
  if (!existsSync(join(root, 'dist/.vite/manifest.json'))) {
    execFileSync('npx', ['vite', 'build'], { cwd: root, stdio: 'inherit' })
  }
  // @ts-expect-error plain ESM script without types
  const { firstLoadGzipKiB } = (await import('../../scripts/check-bundle.mjs')) as {
    firstLoadGzipKiB: () => number
  }
  const kib = firstLoadGzipKiB()
  console.log(`initial JS (gzip): ${kib.toFixed(1)} KiB`)
  return { initial_js_gzip_kib: kib }
}
