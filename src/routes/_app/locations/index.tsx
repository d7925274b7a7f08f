import { createFileRoute } from '@tanstack/react-router'
import { LocationsPage } from '../../../features/directory/locations-page.tsx'

export const Route = createFileRoute('/_app/locations/')({ component: LocationsPage })
