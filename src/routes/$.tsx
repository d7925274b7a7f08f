import { createFileRoute, redirect } from '@tanstack/react-router'

/** Any unknown path goes to the 404 page (docs/app-shell.md "Routes (src/routes)"). */
export const Route = createFileRoute('/$')({
  beforeLoad: () => {
    throw redirect({ to: '/pages/error-404', replace: true })
  },
})
