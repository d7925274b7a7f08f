import { createFileRoute } from '@tanstack/react-router'
import { MaintenancePage } from '../../ui/status-pages.tsx'

export const Route = createFileRoute('/pages/maintenance')({ component: MaintenancePage })
