import { createFileRoute } from '@tanstack/react-router'
import { NotAuthorizedPage } from '../../ui/status-pages.tsx'

export const Route = createFileRoute('/pages/not-authorized')({ component: NotAuthorizedPage })
