import { createFileRoute, useRouter } from '@tanstack/react-router'
import { LoginForm, safeRedirectTarget, validateToSearch } from '../../features/auth/index.ts'

export const Route = createFileRoute('/pages/login')({
  validateSearch: validateToSearch,
  component: LoginPage,
})

function LoginPage() {
  const { to } = Route.useSearch()
  const router = useRouter()
  return <LoginForm onSignedIn={() => router.history.push(safeRedirectTarget(to))} />
}
