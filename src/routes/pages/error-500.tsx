import { createFileRoute } from '@tanstack/react-router'
import { ServerErrorPage } from '../../ui/status-pages.tsx'

export const Route = createFileRoute('/pages/error-500')({ component: ServerErrorPage })
