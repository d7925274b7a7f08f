// The analytics screen's public entry (docs/analytics.md).
export { loadAnalyticsPage } from './on-demand.ts'
