import { createFileRoute, useRouter } from '@tanstack/react-router'
import { safeRedirectTarget } from '../../features/auth/guard.ts'
import { LoginForm } from '../../features/auth/login-form.tsx'
import { validateToSearch } from '../../features/auth/search.ts'

export const Route = createFileRoute('/pages/login')({
  validateSearch: validateToSearch,
  component: LoginPage,
})

function LoginPage() {
  const { to } = Route.useSearch()
  const router = useRouter()
  return <LoginForm onSignedIn={() => router.history.push(safeRedirectTarget(to))} />
}
