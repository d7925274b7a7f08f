import { createFileRoute } from '@tanstack/react-router'
import { DepartmentAddPage } from '../../../features/directory/index.ts'

export const Route = createFileRoute('/_app/department/add')({ component: DepartmentAddPage })
