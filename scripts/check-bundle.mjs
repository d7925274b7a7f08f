#!/usr/bin/env node
// First-load budget (run after `npm run build`): the JavaScript a first visit to each list page
// downloads, gzipped, must stay within the budget; PixiJS must not be part of it (it belongs to the
// editor), nor Dexie (the sync worker holds the database; the page reaches it through src/mirror),
// nor Mantine (the list pages draw with the light controls of src/ui; forms and dialogs load it).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

// The target is 150 KiB for every list page. Lower the budget with every saving, never raise it.
const BUDGET_KIB = Number(process.env.BUNDLE_BUDGET_KIB ?? 150)
const dist = new URL('../dist/', import.meta.url).pathname
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'))

// Every visit loads the entry, the root and the main layout routes.
const SHELL = [/^index\.html$/, /src\/routes\/__root\.tsx/, /src\/routes\/_app\.tsx/]

/** The list pages: a first visit to any of them must stay light (each route's own file). */
export const LIST_PAGES = {
  '/projects': 'projects/index',
  '/department': 'department/index',
  '/locations': 'locations/index',
  '/specialist': 'specialist/index',
  '/integrations': 'integrations/index',
  '/integrations/amo': 'integrations/amo/index',
  '/integrations/bitrix': 'integrations/bitrix/index',
}

const PIXI_MARKERS = [/PixiJS/, /pixi\.js/, /WebGLRenderer/]
const DEXIE_MARKERS = [/DexieError/]
// Mantine's provider error text is in every Mantine component's chunk, the scroll-lock class in
// react-remove-scroll's.
const MANTINE_MARKERS = [/MantineProvider was not found/, /right-scroll-bar-position/]

function routePattern(page) {
  const file = LIST_PAGES[page]
  if (!file) throw new Error(`not a list page: ${page}`)
  // The route module and its split component (`…/index.tsx?tsr-split=component`).
  return new RegExp(`^src/routes/_app/${file.replaceAll('/', '\\/')}\\.tsx(\\?|$)`)
}

/** The JavaScript files a first visit to `page` loads (static imports only). */
export function firstLoadFiles(page = '/projects') {
  const patterns = [...SHELL, routePattern(page)]
  const files = new Set()
  const visit = (key) => {
    const chunk = manifest[key]
    if (!chunk || files.has(chunk.file)) return
    files.add(chunk.file)
    for (const dep of chunk.imports ?? []) visit(dep)
  }
  for (const key of Object.keys(manifest)) if (patterns.some((re) => re.test(key))) visit(key)
  return [...files].filter((f) => f.endsWith('.js'))
}

const gzipBytes = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length

/** KiB of gzipped JavaScript a first visit to `page` downloads. */
export function firstLoadGzipKiB(page = '/projects') {
  let bytes = 0
  for (const file of firstLoadFiles(page)) bytes += gzipBytes(file)
  return bytes / 1024
}

/** What is wrong with a first visit to `page`: over budget, or a library that is not its own. */
export function checkPage(page) {
  const files = firstLoadFiles(page)
  if (files.length === 0) return { kib: 0, problems: [`no built files for ${page}`] }
  const kib = firstLoadGzipKiB(page)
  const problems = []
  if (kib > BUDGET_KIB) problems.push(`over budget by ${(kib - BUDGET_KIB).toFixed(1)} KiB`)
  for (const [name, markers] of [
    ['PixiJS', PIXI_MARKERS],
    ['Dexie', DEXIE_MARKERS],
    ['Mantine', MANTINE_MARKERS],
  ]) {
    const found = files.filter((file) => {
      const text = readFileSync(join(dist, file), 'utf8')
      return markers.some((re) => re.test(text))
    })
    if (found.length) problems.push(`${name} in ${found.join(', ')}`)
  }
  return { kib, problems }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--files')) {
    for (const file of firstLoadFiles(process.argv[process.argv.indexOf('--files') + 1])) {
      console.log(`${(gzipBytes(file) / 1024).toFixed(1).padStart(7)} KiB  ${file}`)
    }
    process.exit(0)
  }
  let ok = true
  console.log(`First-load JavaScript, gzip (budget ${BUDGET_KIB} KiB per page):`)
  for (const page of Object.keys(LIST_PAGES)) {
    const { kib, problems } = checkPage(page)
    const verdict = problems.length ? `FAIL: ${problems.join('; ')}` : 'ok'
    console.log(`  ${page.padEnd(22)} ${kib.toFixed(1).padStart(6)} KiB  ${verdict}`)
    if (problems.length) ok = false
  }
  if (!ok) console.error('A list page is over budget or loads a library it must not (see above).')
  process.exit(ok ? 0 : 1)
}
