import * as v from 'valibot'
import { AnalyticsSummary, type SummaryQuery } from '../domain/analytics.ts'
import { getDb, type MirrorDb } from './db.ts'

/**
 * The figures «Аналитика» last got, kept in the mirror's `meta` table (docs/analytics.md,
 * "The screen"): the screen paints them at once and shows them with their date when the network is
 * gone. They live in the mirror, not in localStorage, so they are wiped with everything else of an
 * account when another person signs in on the tablet.
 */

const PREFIX = 'analytics:'
/** Periods kept per workspace: the latest ones, so a tablet never fills up with old reports. */
export const KEPT_PER_WORKSPACE = 12

export interface KeptSummary {
  query: SummaryQuery
  /** ISO time the server answered. */
  at: string
  summary: AnalyticsSummary
}

const Kept = v.object({
  query: v.object({
    workspace_id: v.number(),
    from: v.string(),
    to: v.string(),
    project_id: v.optional(v.number()),
  }),
  at: v.string(),
  summary: AnalyticsSummary,
})

const workspacePrefix = (workspaceId: number) => `${PREFIX}${workspaceId}:`
export const keptKey = (q: SummaryQuery) =>
  `${workspacePrefix(q.workspace_id)}${q.from}:${q.to}:${q.project_id ?? 'all'}`

function parse(value: unknown): KeptSummary | null {
  const parsed = v.safeParse(Kept, value)
  return parsed.success ? (parsed.output as KeptSummary) : null
}

/** Keeps an answer, dropping the workspace's oldest periods beyond `KEPT_PER_WORKSPACE`. */
export async function keepSummary(
  query: SummaryQuery,
  summary: AnalyticsSummary,
  at: Date = new Date(),
  db: MirrorDb = getDb(),
): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    await db.meta.put({ key: keptKey(query), value: { query, at: at.toISOString(), summary } })
    const rows = await db.meta
      .where('key')
      .startsWith(workspacePrefix(query.workspace_id))
      .toArray()
    const stale = rows
      .map((row) => ({ key: row.key, at: parse(row.value)?.at ?? '' }))
      .sort((a, b) => (a.at < b.at ? 1 : -1))
      .slice(KEPT_PER_WORKSPACE)
    await db.meta.bulkDelete(stale.map((row) => row.key))
  })
}

/**
 * The figures kept for this very query, else (`fallback`) the workspace's latest ones, whatever
 * their period: offline, something dated is better than nothing. Unreadable rows count as absent.
 */
export async function keptSummary(
  query: SummaryQuery,
  { fallback = false }: { fallback?: boolean } = {},
  db: MirrorDb = getDb(),
): Promise<KeptSummary | null> {
  const exact = parse((await db.meta.get(keptKey(query)))?.value)
  if (exact || !fallback) return exact
  const rows = await db.meta.where('key').startsWith(workspacePrefix(query.workspace_id)).toArray()
  let latest: KeptSummary | null = null
  for (const row of rows) {
    const kept = parse(row.value)
    if (kept && (!latest || kept.at > latest.at)) latest = kept
  }
  return latest
}
