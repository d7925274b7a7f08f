import { createFileRoute } from '@tanstack/react-router'
import { LocationAddPage } from '../../../features/directory/index.ts'

export const Route = createFileRoute('/_app/locations/add')({ component: LocationAddPage })
