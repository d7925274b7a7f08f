import { createFileRoute } from '@tanstack/react-router'
import { ForgotPasswordForm } from '../../features/auth/index.ts'

export const Route = createFileRoute('/pages/forgot-password')({ component: ForgotPasswordForm })
