import { createFileRoute, Outlet, useMatches } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { requireAuth, UserMenu } from '../features/auth/index.ts'
import { loadNewAppealsBadge } from '../features/appeal-count/index.ts'
import { LanguageSwitch } from '../features/locale/index.ts'
import { loadSyncStatus } from '../features/sync-status/index.ts'
import { loadWorkspaceSwitcher } from '../features/workspaces/index.ts'
import { AppLayout } from '../ui/app-layout.tsx'
import { AfterFirstScreen, FirstScreenMark } from '../ui/first-screen.tsx'
import { MantineScope } from '../ui/mantine-scope.tsx'

/**
 * Main layout: every product route needs the editor rule (docs/app-shell.md
 * "Guard (src/features/auth/guard.ts, pure)").
 */
export const Route = createFileRoute('/_app')({
  beforeLoad: ({ location, context }) =>
    requireAuth({ pathname: location.pathname, href: location.href }, 'editor', context.session),
  component: AppRoute,
})

// The header's widgets load once the first screen is drawn (docs/performance.md): the status
// reads IndexedDB, which the first paint does not need. Closed, they are the app's own light
// controls; their overlays load Mantine when first opened.
const SyncStatus = lazy(() => loadSyncStatus().then((m) => ({ default: m.SyncStatus })))

// The number of new requests reads IndexedDB and the API: after the first screen too.
const NewAppealsBadge = lazy(() =>
  loadNewAppealsBadge().then((m) => ({ default: m.NewAppealsBadge })),
)

const WorkspaceSwitcher = lazy(() =>
  loadWorkspaceSwitcher().then((m) => ({ default: m.WorkspaceSwitcher })),
)

function AppRoute() {
  // Pages marked `staticData: { mantineFree: true }` (the projects list) render directly; the
  // others inside a Mantine island. Moving between the two kinds remounts the page, as a
  // navigation does anyway.
  const mantineFree = useMatches({
    select: (matches) => matches[matches.length - 1]?.staticData.mantineFree === true,
  })
  return (
    <AppLayout
      workspaceSwitcher={
        <AfterFirstScreen>
          <Suspense fallback={null}>
            <WorkspaceSwitcher />
          </Suspense>
        </AfterFirstScreen>
      }
      syncStatus={
        <AfterFirstScreen>
          <Suspense fallback={null}>
            <SyncStatus />
          </Suspense>
        </AfterFirstScreen>
      }
      languageSwitch={<LanguageSwitch />}
      navBadges={{
        '/appeal': (
          <AfterFirstScreen>
            <Suspense fallback={null}>
              <NewAppealsBadge />
            </Suspense>
          </AfterFirstScreen>
        ),
      }}
      userMenu={<UserMenu />}
    >
      {mantineFree ? (
        <Outlet />
      ) : (
        <MantineScope>
          <Outlet />
          <FirstScreenMark />
        </MantineScope>
      )}
    </AppLayout>
  )
}
