import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireAuth } from '../features/auth/route-guard.ts'
import { UserMenu } from '../features/auth/user-menu.tsx'
import { LanguageSwitch } from '../features/locale/language-switch.tsx'
import { WorkspaceSwitcher } from '../features/workspaces/workspace-switcher.tsx'
import { AppLayout } from '../ui/app-layout.tsx'

/** Main layout: every product route needs the editor rule (spec §6). */
export const Route = createFileRoute('/_app')({
  beforeLoad: ({ location, context }) =>
    requireAuth({ pathname: location.pathname, href: location.href }, 'editor', context.session),
  component: AppRoute,
})

function AppRoute() {
  return (
    <AppLayout
      workspaceSwitcher={<WorkspaceSwitcher />}
      syncStatus={null}
      languageSwitch={<LanguageSwitch />}
      userMenu={<UserMenu />}
    >
      <Outlet />
    </AppLayout>
  )
}
