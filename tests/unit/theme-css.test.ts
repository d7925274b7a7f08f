// @vitest-environment node
import { readFileSync } from 'node:fs'
import {
  createTheme,
  DEFAULT_THEME,
  defaultCssVariablesResolver,
  mergeMantineTheme,
} from '@mantine/core'
import { describe, expect, it } from 'vitest'
import { DIMMED_TEXT, theme } from '../../src/ui/mantine-theme.ts'

/** `--name: value` pairs declared in the light-scheme block of src/ui/theme.css. */
function declaredLightVariables(): Map<string, string> {
  const css = readFileSync(new URL('../../src/ui/theme.css', import.meta.url), 'utf8')
  const block = css.split(":root[data-mantine-color-scheme='light'] {")[1]?.split('}')[0] ?? ''
  const pairs = [...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)]
  return new Map(pairs.map(([, name, value]) => [name!, value!.trim()]))
}

describe('the static theme variables (screens drawn before Mantine loads)', () => {
  it('declare every light-scheme variable the theme changes, with the same value', () => {
    const ours = defaultCssVariablesResolver(mergeMantineTheme(DEFAULT_THEME, theme)).light
    const defaults: Record<string, string> = defaultCssVariablesResolver(
      mergeMantineTheme(DEFAULT_THEME, createTheme({})),
    ).light
    const changed = Object.entries(ours).filter(([name, value]) => defaults[name] !== value)
    expect(changed.length).toBeGreaterThan(0)
    const declared = declaredLightVariables()
    for (const [name, value] of changed) expect(declared.get(name), name).toBe(value)
    expect(declared.get('--mantine-color-dimmed')).toBe(DIMMED_TEXT)
  })
})
