#!/usr/bin/env node
// First-load budget (run after `npm run build`): the JavaScript a first visit to /projects downloads,
// gzipped, must stay within the budget; PixiJS must not be part of it (it belongs to the editor) and
// neither must Dexie (the sync worker holds the database; the page reaches it through src/mirror).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

// The target is 150 KiB: the shell and the projects list draw without Mantine, and Dexie lives in
// the sync worker. Lower the budget with every saving, never raise it.
const BUDGET_KIB = Number(process.env.BUNDLE_BUDGET_KIB ?? 150)
const dist = new URL('../dist/', import.meta.url).pathname
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'))

// Modules a visit to /projects loads: the entry, the root and main layout routes, the projects list.
const FIRST_LOAD = [
  /^index\.html$/,
  /src\/routes\/__root\.tsx/,
  /src\/routes\/_app\.tsx/,
  /src\/routes\/_app\/projects\/index\.tsx/,
]
const PIXI_MARKERS = [/PixiJS/, /pixi\.js/, /WebGLRenderer/]
const DEXIE_MARKERS = [/DexieError/]
// The shell and the projects list draw without Mantine (ARCHITECTURE.md): its provider's error
// text is in every Mantine component's chunk, the scroll-lock class in react-remove-scroll's.
const MANTINE_MARKERS = [/MantineProvider was not found/, /right-scroll-bar-position/]

export function firstLoadFiles() {
  const files = new Set()
  const visit = (key) => {
    const chunk = manifest[key]
    if (!chunk || files.has(chunk.file)) return
    files.add(chunk.file)
    for (const dep of chunk.imports ?? []) visit(dep)
  }
  for (const key of Object.keys(manifest)) if (FIRST_LOAD.some((re) => re.test(key))) visit(key)
  return [...files].filter((f) => f.endsWith('.js'))
}

export function firstLoadGzipKiB() {
  let bytes = 0
  for (const file of firstLoadFiles())
    bytes += gzipSync(readFileSync(join(dist, file)), { level: 9 }).length
  return bytes / 1024
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = firstLoadFiles()
  let total = 0
  const pixi = []
  const dexie = []
  const mantine = []
  for (const file of files) {
    const code = readFileSync(join(dist, file))
    const gz = gzipSync(code, { level: 9 }).length
    total += gz
    console.log(`${(gz / 1024).toFixed(1).padStart(7)} KiB  ${file}`)
    const text = code.toString('utf8')
    if (PIXI_MARKERS.some((re) => re.test(text))) pixi.push(file)
    if (DEXIE_MARKERS.some((re) => re.test(text))) dexie.push(file)
    if (MANTINE_MARKERS.some((re) => re.test(text))) mantine.push(file)
  }
  console.log(
    `First-load JavaScript for /projects: ${(total / 1024).toFixed(1)} KiB gzip (budget ${BUDGET_KIB} KiB)`,
  )
  let ok = true
  if (total / 1024 > BUDGET_KIB) {
    console.error(`Over budget by ${(total / 1024 - BUDGET_KIB).toFixed(1)} KiB.`)
    ok = false
  }
  if (pixi.length) {
    console.error(`PixiJS is in the first load: ${pixi.join(', ')}`)
    ok = false
  }
  if (dexie.length) {
    console.error(`Dexie is in the first load: ${dexie.join(', ')}`)
    ok = false
  }
  if (mantine.length) {
    console.error(`Mantine is in the first load: ${mantine.join(', ')}`)
    ok = false
  }
  process.exit(ok ? 0 : 1)
}
