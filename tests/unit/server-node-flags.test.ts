import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SERVER_NODE_FLAGS } from '../../server/node-flags.ts'

const scripts = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>
  }
).scripts

describe('the server runs with its Node options wherever it is started', () => {
  it.each(['start', 'serve'])('npm run %s passes every one of them to node', (name) => {
    const command = scripts[name]!
    expect(command).toMatch(/\bnode\b.*server\/main\.ts/)
    const args = command.slice(command.lastIndexOf('node ')).split(/\s+/)
    expect(SERVER_NODE_FLAGS.length).toBeGreaterThan(0)
    for (const flag of SERVER_NODE_FLAGS) expect(args).toContain(flag)
  })
})
