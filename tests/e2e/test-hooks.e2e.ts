import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BUILD_DIRS } from './global-setup.ts'

/**
 * What the browser journeys and the canvas benchmarks read from the editor, compiled into the test
 * build only (src/features/editor/canvas/test-hooks.ts). The setup builds both (global-setup.ts).
 */
const IN_TEST_BUILD = [
  '__promoEditorCanvas',
  '__promoEditorTextures',
  'dataset.frames',
  'dataset.renderer',
]
const HOOKS = [...IN_TEST_BUILD, 'VITE_TEST_HOOKS']

/** Every script of a build, with its text. */
function scripts(dir: string): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = []
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.m?js$/.test(entry.name))
        found.push({ file: path, text: readFileSync(path, 'utf8') })
    }
  }
  walk(dir)
  return found
}

const withHook = (dir: string, hook: string) =>
  scripts(dir)
    .filter(({ text }) => text.includes(hook))
    .map(({ file }) => file.slice(dir.length + 1))

describe('test hooks', () => {
  it('are not in the shipped build (npm run build)', () => {
    expect(scripts(BUILD_DIRS.production).length).toBeGreaterThan(0)
    for (const hook of HOOKS) expect(withHook(BUILD_DIRS.production, hook), hook).toEqual([])
  })

  it('are in the test build the journeys run on', () => {
    for (const hook of IN_TEST_BUILD)
      expect(withHook(BUILD_DIRS.test, hook).length, hook).toBeGreaterThan(0)
  })
})
