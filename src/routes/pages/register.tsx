import { createFileRoute, useRouter } from '@tanstack/react-router'
import { RegisterForm } from '../../features/auth/index.ts'

export const Route = createFileRoute('/pages/register')({ component: RegisterPage })

function RegisterPage() {
  const router = useRouter()
  return <RegisterForm onRegistered={() => router.history.push('/')} />
}
