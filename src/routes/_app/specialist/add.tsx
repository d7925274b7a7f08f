import { createFileRoute } from '@tanstack/react-router'
import { SpecialistAddPage } from '../../../features/directory/index.ts'

export const Route = createFileRoute('/_app/specialist/add')({ component: SpecialistAddPage })
