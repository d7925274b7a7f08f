#!/usr/bin/env node
// Fails when a comment or a doc cites a document that is not in the repository (its numbered
// sections, or a path outside the tree): every rule the code follows is written in docs/, and a
// reference names the doc and its section, e.g. (docs/API.md "Errors").
// Usage: node scripts/check-doc-refs.mjs [file or directory ...]
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const DEFAULT_ROOTS = [
  'src',
  'server',
  'workers',
  'tests',
  'docs',
  'scripts',
  'README.md',
  'ARCHITECTURE.md',
]
const SKIPPED_DIRS = new Set([
  'node_modules',
  'dist',
  'dist-test',
  'dist-page',
  'coverage',
  'test-results',
  'dev-dist',
])
const SELF = fileURLToPath(import.meta.url)

/** A numbered section of an outside document, its file, or a path out of the tree. */
const FORBIDDEN = /\bspec\s*§|\bDESIGN\s*§|\bspec\.md\b|\bDESIGN\.md\b|\.\.\/shared\b/i
/** The same reference broken over two lines: «spec» or «DESIGN» at a line's end, «§» next. */
const ENDS_WITH_NAME = /\b(spec|DESIGN)\s*$/i
const STARTS_WITH_SECTION = /^\s*(\*|\/\/|--|#)?\s*§/

function* files(path) {
  const stat = statSync(path, { throwIfNoEntry: false })
  if (!stat) return
  if (stat.isFile()) {
    yield path
    return
  }
  if (!stat.isDirectory()) return
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) continue
    if (entry.name.startsWith('dist-')) continue
    yield* files(join(path, entry.name))
  }
}

/** `file:line: text` of every forbidden reference in `text`. */
export function findOutsideRefs(text, file) {
  const hits = []
  const lines = text.split(/\r?\n/)
  lines.forEach((line, index) => {
    const next = lines[index + 1] ?? ''
    const broken = ENDS_WITH_NAME.test(line) && STARTS_WITH_SECTION.test(next)
    if (FORBIDDEN.test(line) || broken) hits.push(`${file}:${index + 1}: ${line.trim()}`)
  })
  return hits
}

const roots = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_ROOTS
const hits = []
for (const root of roots) {
  for (const path of files(root)) {
    if (resolve(path) === SELF) continue
    const bytes = readFileSync(path)
    if (bytes.includes(0)) continue // binary: pictures, fonts, videos
    hits.push(...findOutsideRefs(bytes.toString('utf8'), relative('.', path)))
  }
}

if (hits.length > 0) {
  console.error(hits.join('\n'))
  console.error(
    `\n${hits.length} reference(s) to a document outside the repository. Write the rule in docs/ ` +
      `and cite it as the code does: (docs/API.md "Errors").`,
  )
  process.exit(1)
}
