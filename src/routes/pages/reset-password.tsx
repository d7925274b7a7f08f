import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { ResetPasswordForm, validateTokenSearch } from '../../features/auth/index.ts'

export const Route = createFileRoute('/pages/reset-password')({
  validateSearch: validateTokenSearch,
  component: ResetPasswordPage,
})

function ResetPasswordPage() {
  const { token } = Route.useSearch()
  const navigate = useNavigate()
  return (
    <ResetPasswordForm
      token={token ?? ''}
      onDone={() => void navigate({ to: '/pages/login', search: {} })}
    />
  )
}
