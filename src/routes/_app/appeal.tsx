import { createFileRoute } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { loadAppealsPage } from '../../features/appeals/index.ts'

// The screen and its words load with this route only (docs/requests.md, "The app").
const AppealsPage = lazy(loadAppealsPage)

/** `?id=` opens one request beside the list; anything else is dropped. */
function validateSearch(search: Record<string, unknown>): { id?: number } {
  const id = Number(search.id)
  return Number.isSafeInteger(id) && id > 0 ? { id } : {}
}

export const Route = createFileRoute('/_app/appeal')({
  // Drawn without Mantine, like the list pages (docs/app-shell.md "UI kit").
  staticData: { mantineFree: true },
  validateSearch,
  component: Page,
})

function Page() {
  const { id } = Route.useSearch()
  return (
    <Suspense fallback={null}>
      <AppealsPage openId={id ?? null} />
    </Suspense>
  )
}
