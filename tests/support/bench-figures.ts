import { expect, it } from 'vitest'

/**
 * What a benchmark's smoke run must report (README.md, "Benchmarks"): every figure named by one of
 * the rules, each rule naming at least one figure, and each value as its rule says. A figure is
 * `positive` where a zero would mean the benchmark measured nothing (no frames drawn, no requests
 * answered, a timer that never moved); `nonNegative` where zero is a fair reading (no long task,
 * no memory grown, pixels that all match); `zero` where anything else is a fault (requests lost);
 * `finite` where either sign is fair (a heap that shrank).
 */
export type FigureRule = 'positive' | 'nonNegative' | 'zero' | 'finite'

const holds: Record<FigureRule, (value: number) => boolean> = {
  positive: (value) => Number.isFinite(value) && value > 0,
  nonNegative: (value) => Number.isFinite(value) && value >= 0,
  zero: (value) => value === 0,
  finite: (value) => Number.isFinite(value),
}

/** Rules by figure name, or by a pattern for figures named after block types and the like. */
export type FigureRules = readonly (readonly [name: string | RegExp, rule: FigureRule])[]

const names = (name: string | RegExp, key: string) =>
  typeof name === 'string' ? name === key : name.test(key)

export function expectFigures(figures: Record<string, number>, rules: FigureRules): void {
  const problems: string[] = []
  for (const [key, value] of Object.entries(figures)) {
    const rule = rules.find(([name]) => names(name, key))?.[1]
    if (!rule) problems.push(`${key} = ${value}: a figure the smoke run does not know`)
    else if (!holds[rule](value)) problems.push(`${key} = ${value}: not ${rule}`)
  }
  for (const [name] of rules)
    if (!Object.keys(figures).some((key) => names(name, key)))
      problems.push(`${String(name)}: not reported`)
  expect(problems, problems.join('; ')).toEqual([])
}

/** Names that share a rule. */
export const all = (rule: FigureRule, ...names: string[]): FigureRules =>
  names.map((name) => [name, rule])

/** A benchmark's smoke run: what runs it, the rules of its figures, and any other check. */
export interface SmokeRun {
  title: string
  run: () => Promise<Record<string, number>>
  figures: FigureRules
  check?: (figures: Record<string, number>) => void
}

/** A test for each smoke run: it runs, then its figures are checked. */
export function smokeRuns(runs: readonly SmokeRun[], timeoutMs = 180_000): void {
  for (const { title, run, figures: rules, check } of runs)
    it(
      title,
      async () => {
        const figures = await run()
        expectFigures(figures, rules)
        check?.(figures)
      },
      timeoutMs,
    )
}
