import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

export interface AxeFinding {
  rule: string
  impact: string
  help: string
  targets: string[]
}

/**
 * Runs axe-core on the page as it is now (WCAG 2.2 A and AA, and axe's best practices) and returns
 * the serious and critical findings. axe is evaluated through the DevTools protocol, so the app's
 * Content-Security-Policy (script-src 'self') need not be loosened for it.
 */
export async function seriousAccessibilityProblems(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => 'axe' in window)
  if (!loaded) await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } })
      .axe
    const result = (await axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
    })) as {
      violations: {
        id: string
        impact: string | null
        help: string
        nodes: { target: string[] }[]
      }[]
    }
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        rule: v.id,
        impact: v.impact ?? '',
        help: v.help,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      }))
  })
}
