#!/usr/bin/env node
// Fails when a comment or a doc cites a document that is not in the repository (its numbered
// sections, or a path outside the tree): every rule the code follows is written in docs/, and a
// reference names the doc and its section, e.g. (docs/API.md "Errors").
// Fails too when such a reference leads nowhere: a cited Markdown file of the repository (a path
// from its root, docs/API.md, server/README.md) must exist, and a section named right after it in
// quotes, "…" or «…» (after a space or a comma, or on the comment's next line; several: a list
// with commas), must be the exact text of one of that file's headings, # to ######, e.g.
// (docs/SYNC.md, "Conflicts").
// Usage: node scripts/check-doc-refs.mjs [file or directory ...]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
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
  'eslint.config.js',
  'lingui.config.ts',
  'vite.config.ts',
  'vite.page.config.ts',
  'vitest.config.ts',
  'vitest.e2e.config.ts',
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
const ROOT = resolve(dirname(SELF), '..')

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

/** A comment's line break: the newline, then the next line's indent and comment mark. */
const BREAK = String.raw`\r?\n[ \t]*(?:\*|\/\/|#|--)?[ \t]*`
const BREAKS = new RegExp(BREAK, 'g')
/** A quoted name, "…" or «…», at most one line break inside. */
const IN_STRAIGHT = String.raw`[^"\n]{1,150}(?:${BREAK}[^"\n]{1,150})?`
const IN_GUILLEMETS = String.raw`[^«»\n]{1,150}(?:${BREAK}[^«»\n]{1,150})?`
const QUOTED = String.raw`(?:"(${IN_STRAIGHT})"|«(${IN_GUILLEMETS})»)`
/** A Markdown file of the repository by its path from the root: docs/API.md, ../docs/crm.md. */
const DOC = /(?<![\w./-])(?:\.\.\/)*((?:[\w-]+\/)+[\w.-]+\.md)(?![\w-]|\.\w)/g
/** The section right after it: ` "Errors"`, `, «UI kit»`, or on the next line of the comment. */
const FIRST_SECTION = new RegExp(String.raw`,?[ \t]?(?:${BREAK})?${QUOTED}`, 'y')
/** Another section of the same doc in a list: (docs/API.md, "Versions", "Conditional writes"). */
const NEXT_SECTION = new RegExp(String.raw`,[ \t]?(?:${BREAK})?${QUOTED}`, 'y')
/** A Markdown heading, # to ######, its closing #s left out. */
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
const FENCE = /^ {0,3}(`{3,}|~{3,})/

const headingsByDoc = new Map()

/** The headings of a doc of the repository (outside its code blocks), or null with no such doc. */
function headingsOf(doc) {
  if (!headingsByDoc.has(doc)) {
    const path = join(ROOT, doc)
    let headings = null
    if (existsSync(path)) {
      headings = new Set()
      let fence = null
      for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
        const opens = FENCE.exec(line)
        if (fence) {
          if (opens && opens[1][0] === fence[0] && opens[1].length >= fence.length) fence = null
        } else if (opens) {
          fence = opens[1]
        } else {
          const heading = HEADING.exec(line)
          if (heading) headings.add((heading[1] ?? '').trim())
        }
      }
    }
    headingsByDoc.set(doc, headings)
  }
  return headingsByDoc.get(doc)
}

/** `file:line: …` of every reference to a doc that is not there, or to a heading it lacks. */
export function findBrokenSectionRefs(text, file) {
  const hits = []
  const lineAt = (index) => text.slice(0, index).split('\n').length
  for (const ref of text.matchAll(DOC)) {
    const doc = ref[1]
    const headings = headingsOf(doc)
    const where = `${file}:${lineAt(ref.index)}`
    if (!headings) {
      hits.push(`${where}: ${doc}: no such file`)
      continue
    }
    let at = ref.index + ref[0].length
    for (let section = FIRST_SECTION; ; section = NEXT_SECTION) {
      section.lastIndex = at
      const quoted = section.exec(text)
      if (!quoted) break
      at = section.lastIndex
      const name = (quoted[1] ?? quoted[2]).replace(BREAKS, ' ').trim()
      if (!headings.has(name)) hits.push(`${where}: ${doc} "${name}": no such heading`)
    }
  }
  return hits
}

const roots = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_ROOTS
const hits = []
const broken = []
for (const root of roots) {
  for (const path of files(root)) {
    const bytes = readFileSync(path)
    if (bytes.includes(0)) continue // binary: pictures, fonts, videos
    const text = bytes.toString('utf8')
    const file = relative('.', path)
    if (resolve(path) !== SELF) hits.push(...findOutsideRefs(text, file))
    broken.push(...findBrokenSectionRefs(text, file))
  }
}

if (hits.length > 0) {
  console.error(hits.join('\n'))
  console.error(
    `\n${hits.length} reference(s) to a document outside the repository. Write the rule in docs/ ` +
      `and cite it as the code does: (docs/API.md "Errors").`,
  )
}
if (broken.length > 0) {
  console.error(broken.join('\n'))
  console.error(
    `\n${broken.length} reference(s) to a doc or a section that is not there. Cite a file ` +
      `of the repository and, in quotes, the exact text of one of its headings: ` +
      `(docs/SYNC.md, "Conflicts").`,
  )
}
if (hits.length > 0 || broken.length > 0) process.exit(1)
