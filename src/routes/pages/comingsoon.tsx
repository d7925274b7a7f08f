import { createFileRoute } from '@tanstack/react-router'
import { ComingSoonPage } from '../../ui/status-pages.tsx'

export const Route = createFileRoute('/pages/comingsoon')({ component: ComingSoonPage })
