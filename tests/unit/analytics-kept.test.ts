import { beforeEach, describe, expect, it } from 'vitest'
import {
  KEPT_PER_WORKSPACE,
  keepSummary,
  keptKey,
  keptSummary,
} from '../../src/data/analytics-kept.ts'
import { MirrorDb } from '../../src/data/db.ts'
import { claimMirror } from '../../src/data/sync-state.ts'
import type { AnalyticsSummary, SummaryQuery } from '../../src/domain/analytics.ts'

/** «Аналитика» offline (docs/analytics.md): the figures kept in the mirror, per period and page. */

let db: MirrorDb
let n = 0
beforeEach(() => {
  n += 1
  db = new MirrorDb(`analytics-kept-${n}`)
})

const summary = (views: number): AnalyticsSummary => ({
  totals: { views, visitors: 2, submissions: 1, clicks: 0, conversion: 0.5 },
  days: [{ date: '2026-11-20', views, visitors: 2, submissions: 1 }],
  projects: [{ project_id: 7, name: 'Акция', views, visitors: 2, submissions: 1, conversion: 0.5 }],
  sources: [{ source: '', views, visitors: 2, submissions: 1 }],
  devices: [{ device: 'phone', views }],
})
const query = (from: string, extra: Partial<SummaryQuery> = {}): SummaryQuery => ({
  workspace_id: 3,
  from,
  to: '2026-11-28',
  ...extra,
})

describe('kept analytics figures', () => {
  it('gives back the figures of the same period and page, with their date', async () => {
    const at = new Date('2026-11-28T09:30:00Z')
    await keepSummary(query('2026-11-22'), summary(40), at, db)
    const kept = await keptSummary(query('2026-11-22'), {}, db)
    expect(kept?.summary.totals.views).toBe(40)
    expect(kept?.at).toBe(at.toISOString())
    expect(await keptSummary(query('2026-11-22', { project_id: 7 }), {}, db)).toBeNull()
    expect(await keptSummary({ ...query('2026-11-22'), workspace_id: 4 }, {}, db)).toBeNull()
  })

  it('falls back to the latest figures of the workspace when asked to', async () => {
    await keepSummary(query('2026-11-22'), summary(40), new Date('2026-11-27T10:00:00Z'), db)
    await keepSummary(query('2026-10-30'), summary(90), new Date('2026-11-28T10:00:00Z'), db)
    const other = query('2026-09-01')
    expect(await keptSummary(other, {}, db)).toBeNull()
    const latest = await keptSummary(other, { fallback: true }, db)
    expect(latest?.query.from).toBe('2026-10-30')
    expect(latest?.summary.totals.views).toBe(90)
    expect(await keptSummary({ ...other, workspace_id: 4 }, { fallback: true }, db)).toBeNull()
  })

  it('keeps only the latest periods of a workspace', async () => {
    for (let i = 0; i < KEPT_PER_WORKSPACE + 3; i += 1) {
      const day = String(i + 1).padStart(2, '0')
      await keepSummary(
        query(`2026-11-${day}`),
        summary(i),
        new Date(Date.UTC(2026, 10, i + 1)),
        db,
      )
    }
    await keepSummary({ ...query('2026-11-01'), workspace_id: 4 }, summary(1), new Date(0), db)
    const rows = await db.meta.where('key').startsWith('analytics:3:').toArray()
    expect(rows).toHaveLength(KEPT_PER_WORKSPACE)
    expect(rows.map((r) => r.key)).not.toContain(keptKey(query('2026-11-01')))
    expect(rows.map((r) => r.key)).toContain(keptKey(query('2026-11-15')))
    expect(await db.meta.get(keptKey({ ...query('2026-11-01'), workspace_id: 4 }))).toBeDefined()
  })

  it('treats an unreadable row as absent', async () => {
    await db.meta.put({ key: keptKey(query('2026-11-22')), value: { summary: 'broken' } })
    expect(await keptSummary(query('2026-11-22'), { fallback: true }, db)).toBeNull()
  })

  it('leaves with the account: another person signing in on the tablet wipes them', async () => {
    await claimMirror(1, db)
    await keepSummary(query('2026-11-22'), summary(40), new Date(), db)
    await claimMirror(2, db)
    expect(await keptSummary(query('2026-11-22'), { fallback: true }, db)).toBeNull()
  })
})
