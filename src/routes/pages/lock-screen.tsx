import { createFileRoute, useRouter } from '@tanstack/react-router'
import { LockScreen, safeRedirectTarget, validateToSearch } from '../../features/auth/index.ts'

export const Route = createFileRoute('/pages/lock-screen')({
  validateSearch: validateToSearch,
  component: LockScreenPage,
})

function LockScreenPage() {
  const { to } = Route.useSearch()
  const router = useRouter()
  return <LockScreen onUnlocked={() => router.history.push(safeRedirectTarget(to))} />
}
