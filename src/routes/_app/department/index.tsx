import { createFileRoute } from '@tanstack/react-router'
import { DepartmentsPage } from '../../../features/directory/departments-page.tsx'

export const Route = createFileRoute('/_app/department/')({ component: DepartmentsPage })
