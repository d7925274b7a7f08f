import { createFileRoute, Outlet } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { requireAuth } from '../features/auth/route-guard.ts'
import { UserMenu } from '../features/auth/user-menu.tsx'
import { LanguageSwitch } from '../features/locale/language-switch.tsx'
import { AppLayout } from '../ui/app-layout.tsx'

/** Main layout: every product route needs the editor rule (spec §6). */
export const Route = createFileRoute('/_app')({
  beforeLoad: ({ location, context }) =>
    requireAuth({ pathname: location.pathname, href: location.href }, 'editor', context.session),
  component: AppRoute,
})

// Loaded beside the page: the status reads IndexedDB, which the first paint does not need.
const SyncStatus = lazy(() =>
  import('../features/sync-status/sync-status.tsx').then((m) => ({ default: m.SyncStatus })),
)

function AppRoute() {
  return (
    <AppLayout
      workspaceSwitcher={null}
      syncStatus={
        <Suspense fallback={null}>
          <SyncStatus />
        </Suspense>
      }
      languageSwitch={<LanguageSwitch />}
      userMenu={<UserMenu />}
    >
      <Outlet />
    </AppLayout>
  )
}
