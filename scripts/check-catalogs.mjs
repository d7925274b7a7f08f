#!/usr/bin/env node
// Fails when a message of the English catalog has no translation (run after `lingui extract`).
// Usage: node scripts/check-catalogs.mjs [path/to/catalog.po ...]
import { readdirSync, readFileSync } from 'node:fs'

const files = process.argv.slice(2)
// Every English catalog: the app's and those loaded with their screens (editor, directory, ...).
if (files.length === 0)
  for (const name of readdirSync('src/locales/en').sort())
    if (name.endsWith('.po')) files.push(`src/locales/en/${name}`)

/** Reads a PO string value that may continue over several quoted lines. */
function unquote(lines) {
  return lines
    .map((line) => {
      const match = /^"(.*)"\s*$/.exec(line.trim())
      return match ? JSON.parse(`"${match[1]}"`) : ''
    })
    .join('')
}

export function findUntranslated(text) {
  const missing = []
  // Entries are separated by blank lines; obsolete entries (#~) are ignored.
  for (const block of text.split(/\r?\n\s*\r?\n/)) {
    const lines = block.split(/\r?\n/).filter((line) => line.trim() && !line.startsWith('#'))
    const start = (key) => lines.findIndex((line) => line.startsWith(`${key} `))
    const read = (key) => {
      const at = start(key)
      if (at < 0) return null
      const rest = [lines[at].slice(key.length + 1)]
      for (let i = at + 1; i < lines.length && lines[i].trim().startsWith('"'); i++)
        rest.push(lines[i])
      return unquote(rest)
    }
    const id = read('msgid')
    if (id === null || id === '') continue // header
    const context = read('msgctxt')
    if (start('msgid_plural') >= 0) {
      const forms = lines.filter((line) => /^msgstr\[\d+\] /.test(line))
      const empty =
        forms.length === 0 ||
        forms.some((line) => unquote([line.replace(/^msgstr\[\d+\] /, '')]) === '')
      if (empty) missing.push(context ? `${context}\u0004${id}` : id)
      continue
    }
    const str = read('msgstr')
    if (str === null || str === '') missing.push(context ? `${context}\u0004${id}` : id)
  }
  return missing
}

let failed = false
for (const file of files) {
  let text
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    console.error(`Cannot read ${file}: ${error.message}`)
    failed = true
    continue
  }
  const missing = findUntranslated(text)
  if (missing.length > 0) {
    failed = true
    console.error(`${file}: ${missing.length} message(s) without translation:`)
    for (const id of missing) console.error(`  - ${JSON.stringify(id)}`)
  } else {
    console.log(`${file}: all messages translated.`)
  }
}
process.exit(failed ? 1 : 0)
