import { createFileRoute, useRouter } from '@tanstack/react-router'
import { safeRedirectTarget } from '../../features/auth/guard.ts'
import { LockScreen } from '../../features/auth/lock-screen.tsx'
import { validateToSearch } from '../../features/auth/search.ts'

export const Route = createFileRoute('/pages/lock-screen')({
  validateSearch: validateToSearch,
  component: LockScreenPage,
})

function LockScreenPage() {
  const { to } = Route.useSearch()
  const router = useRouter()
  return <LockScreen onUnlocked={() => router.history.push(safeRedirectTarget(to))} />
}
