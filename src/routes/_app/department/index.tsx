import { createFileRoute } from '@tanstack/react-router'
import { DepartmentsPage } from '../../../features/directory/departments-page.tsx'

export const Route = createFileRoute('/_app/department/')({
  // Drawn without Mantine: a list page is a first screen (scripts/check-bundle.mjs).
  staticData: { mantineFree: true },
  component: DepartmentsPage,
})
