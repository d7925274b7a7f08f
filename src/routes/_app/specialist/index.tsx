import { createFileRoute } from '@tanstack/react-router'
import { SpecialistsPage } from '../../../features/directory/specialists-page.tsx'

export const Route = createFileRoute('/_app/specialist/')({ component: SpecialistsPage })
