import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireAuth } from '../../features/auth/index.ts'
import { MantineScope } from '../../ui/mantine-scope.tsx'
import { PlainLayout } from '../../ui/plain-layout.tsx'

/** Plain centered layout of /pages/*; pages outside the open list still need a signed-in user. */
export const Route = createFileRoute('/pages')({
  beforeLoad: ({ location, context }) =>
    requireAuth({ pathname: location.pathname, href: location.href }, null, context.session),
  component: () => (
    <PlainLayout>
      <MantineScope>
        <Outlet />
      </MantineScope>
    </PlainLayout>
  ),
})
