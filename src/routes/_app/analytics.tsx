import { createFileRoute } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { loadAnalyticsPage } from '../../features/analytics/index.ts'

// The screen and its chart library (uPlot) load with this route only (docs/analytics.md).
const AnalyticsPage = lazy(loadAnalyticsPage)

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
