import { createFileRoute } from '@tanstack/react-router'
import { ForgotPasswordForm } from '../../features/auth/forgot-password-form.tsx'

export const Route = createFileRoute('/pages/forgot-password')({ component: ForgotPasswordForm })
