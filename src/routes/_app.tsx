import { createFileRoute, Outlet, useMatches } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { requireAuth } from '../features/auth/route-guard.ts'
import { UserMenu } from '../features/auth/user-menu.tsx'
import { LanguageSwitch } from '../features/locale/language-switch.tsx'
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
const SyncStatus = lazy(() =>
  import('../features/sync-status/sync-status.tsx').then((m) => ({ default: m.SyncStatus })),
)

// The number of new requests reads IndexedDB and the API: after the first screen too.
const NewAppealsBadge = lazy(() =>
  import('../features/appeal-count/new-appeals-badge.tsx').then((m) => ({
    default: m.NewAppealsBadge,
  })),
)

const WorkspaceSwitcher = lazy(() =>
  import('../features/workspaces/workspace-switcher.tsx').then((m) => ({
    default: m.WorkspaceSwitcher,
  })),
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
