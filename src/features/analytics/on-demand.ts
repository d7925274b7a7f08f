// The analytics screen loads with its route, and uPlot with it (docs/analytics.md).
export const loadAnalyticsPage = () => import('./analytics-page.tsx')
