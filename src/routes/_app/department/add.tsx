import { createFileRoute } from '@tanstack/react-router'
import { DepartmentAddPage } from '../../../features/directory/department-pages.tsx'

export const Route = createFileRoute('/_app/department/add')({ component: DepartmentAddPage })
