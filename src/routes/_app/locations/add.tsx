import { createFileRoute } from '@tanstack/react-router'
import { LocationAddPage } from '../../../features/directory/location-pages.tsx'

export const Route = createFileRoute('/_app/locations/add')({ component: LocationAddPage })
