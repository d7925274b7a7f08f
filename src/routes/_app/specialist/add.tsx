import { createFileRoute } from '@tanstack/react-router'
import { SpecialistAddPage } from '../../../features/directory/specialist-pages.tsx'

export const Route = createFileRoute('/_app/specialist/add')({ component: SpecialistAddPage })
