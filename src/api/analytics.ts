import { AnalyticsSummary, type SummaryQuery } from '../domain/analytics.ts'
import { request } from './client.ts'

/** `GET /api/analytics/summary` (docs/API.md, "Analytics"). */
export function analyticsSummary(query: SummaryQuery) {
  return request('/api/analytics/summary', {
    query: { ...query },
    schema: AnalyticsSummary,
  })
}
