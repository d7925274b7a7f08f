import { createFileRoute } from '@tanstack/react-router'
import { NotFoundPage } from '../../ui/status-pages.tsx'

export const Route = createFileRoute('/pages/error-404')({ component: NotFoundPage })
