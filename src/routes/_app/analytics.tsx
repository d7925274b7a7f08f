import { createFileRoute } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'

// The screen and its chart library (uPlot) load with this route only (docs/analytics.md).
const AnalyticsPage = lazy(() => import('../../features/analytics/analytics-page.tsx'))

export const Route = createFileRoute('/_app/analytics')({
  // Drawn without Mantine, like the list pages (docs/app-shell.md "UI kit").
  staticData: { mantineFree: true },
  component: Page,
})

function Page() {
  return (
    <Suspense fallback={null}>
      <AnalyticsPage />
    </Suspense>
  )
}
