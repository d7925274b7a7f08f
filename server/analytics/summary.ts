import {
  conversion,
  daysBetween,
  DEVICES,
  type AnalyticsSummary,
  type Device,
  type SummaryQuery,
} from '../../src/domain/analytics.ts'
import type { Queryable } from '../db/database.ts'
import { sourceOf } from './classify.ts'

/** Visitors' requests per Moscow day, page and source (docs/analytics.md). */
export interface SubmissionCount {
  day: string
  project_id: number
  source: string
  submissions: number
}

/** Where the summary's requests come from: the store of visitors' requests. */
export type SubmissionCounts = (
  db: Queryable,
  query: SummaryQuery,
  ownHost: string | null,
) => Promise<SubmissionCount[]>

/**
 * Requests from the `appeals` table (docs/analytics.md), spam left out; none while the table does
 * not exist. A request's source is its visit's, told as a view's is: its `utm_source`, else its
 * referrer's domain.
 */
export const appealCounts: SubmissionCounts = async (db, q, ownHost) => {
  const { rows: table } = await db.query<{ found: boolean }>(
    `SELECT to_regclass('appeals') IS NOT NULL AS found`,
  )
  if (!table[0]?.found) return []
  const { rows } = await db.query<{
    day: string
    project_id: number
    utm: string | null
    host: string | null
    n: number
  }>(
    `SELECT (created_at AT TIME ZONE 'Europe/Moscow')::date::text AS day, project_id,
            utm->>'utm_source' AS utm,
            substring(referrer from '^https?://([^/?#]+)') AS host, count(*)::int AS n
     FROM appeals
     WHERE workspace_id = $1 AND status <> 'spam'
       AND created_at >= ($2::date::timestamp AT TIME ZONE 'Europe/Moscow')
       AND created_at < (($3::date + 1)::timestamp AT TIME ZONE 'Europe/Moscow')
       AND ($4::int IS NULL OR project_id = $4)
     GROUP BY 1, 2, 3, 4`,
    [q.workspace_id, q.from, q.to, q.project_id ?? null],
  )
  return rows.map((r) => ({
    day: r.day,
    project_id: r.project_id,
    source: sourceOf(r.utm, r.host ? `https://${r.host}/` : null, ownHost),
    submissions: r.n,
  }))
}

interface Grouped {
  g: number
  day: string | null
  project_id: number | null
  source: string | null
  device: Device | null
  views: number
  visitors: number
  clicks: number
}

/**
 * `GET /api/analytics/summary` (docs/API.md, "Analytics"): one pass over the period's rows of
 * the workspace (grouping sets by day, page, source and device), the requests beside them.
 * The caller has checked membership; null when `project_id` is not the workspace's.
 */
export async function summary(
  db: Queryable,
  q: SummaryQuery,
  submissions: SubmissionCounts,
  ownHost: string | null,
): Promise<AnalyticsSummary | null> {
  const { rows: projects } = await db.query<{ id: number; name: string; published: boolean }>(
    `SELECT p.id, p.name, pp.snapshot IS NOT NULL AS published
     FROM projects p LEFT JOIN project_pages pp ON pp.project_id = p.id
     WHERE p.workspace_id = $1 AND ($2::int IS NULL OR p.id = $2) ORDER BY p.id`,
    [q.workspace_id, q.project_id ?? null],
  )
  if (q.project_id !== undefined && projects.length === 0) return null
  const [{ rows }, requests] = await Promise.all([
    db.query<Grouped>(
      `SELECT GROUPING(day, project_id, source, device) AS g, day::text AS day, project_id,
              source, device, coalesce(sum(views), 0)::int AS views,
              coalesce(sum(visitors), 0)::int AS visitors, coalesce(sum(clicks), 0)::int AS clicks
       FROM analytics_days
       WHERE workspace_id = $1 AND day >= $2::date AND day <= $3::date
         AND ($4::int IS NULL OR project_id = $4)
       GROUP BY GROUPING SETS ((day), (project_id), (source), (device), ())`,
      [q.workspace_id, q.from, q.to, q.project_id ?? null],
    ),
    submissions(db, q, ownHost),
  ])

  const days = new Map(
    daysBetween(q.from, q.to).map((date) => [
      date,
      { date, views: 0, visitors: 0, submissions: 0 },
    ]),
  )
  const perProject = new Map<number, { views: number; visitors: number; submissions: number }>()
  const sources = new Map<
    string,
    { source: string; views: number; visitors: number; submissions: number }
  >()
  const devices = new Map<Device, number>()
  const totals = { views: 0, visitors: 0, submissions: 0, clicks: 0, conversion: 0 }
  const projectOf = (id: number) => {
    let kept = perProject.get(id)
    if (!kept) perProject.set(id, (kept = { views: 0, visitors: 0, submissions: 0 }))
    return kept
  }
  const sourceRow = (source: string) => {
    let kept = sources.get(source)
    if (!kept) sources.set(source, (kept = { source, views: 0, visitors: 0, submissions: 0 }))
    return kept
  }
  // GROUPING's bits: day 8, project 4, source 2, device 1 (a set on the column: 0).
  for (const r of rows) {
    if (r.g === 0b0111 && r.day) {
      const day = days.get(r.day)
      if (day) Object.assign(day, { views: r.views, visitors: r.visitors })
    } else if (r.g === 0b1011 && r.project_id !== null) {
      Object.assign(projectOf(r.project_id), { views: r.views, visitors: r.visitors })
    } else if (r.g === 0b1101 && r.source !== null) {
      Object.assign(sourceRow(r.source), { views: r.views, visitors: r.visitors })
    } else if (r.g === 0b1110 && r.device) {
      devices.set(r.device, r.views)
    } else if (r.g === 0b1111) {
      Object.assign(totals, { views: r.views, visitors: r.visitors, clicks: r.clicks })
    }
  }
  for (const s of requests) {
    const day = days.get(s.day)
    if (day) day.submissions += s.submissions
    projectOf(s.project_id).submissions += s.submissions
    sourceRow(s.source).submissions += s.submissions
    totals.submissions += s.submissions
  }
  totals.conversion = conversion(totals.submissions, totals.visitors)
  return {
    totals,
    days: [...days.values()],
    projects: projects
      .filter((p) => p.published || perProject.has(p.id))
      .map((p) => {
        const figures = perProject.get(p.id) ?? { views: 0, visitors: 0, submissions: 0 }
        return {
          project_id: p.id,
          name: p.name,
          ...figures,
          conversion: conversion(figures.submissions, figures.visitors),
        }
      }),
    sources: [...sources.values()].sort(
      (a, b) => b.views - a.views || b.submissions - a.submissions,
    ),
    devices: DEVICES.filter((d) => devices.has(d)).map((device) => ({
      device,
      views: devices.get(device)!,
    })),
  }
}
