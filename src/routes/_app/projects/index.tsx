import { createFileRoute } from '@tanstack/react-router'
import { ProjectsPage } from '../../../features/projects/projects-page.tsx'

export const Route = createFileRoute('/_app/projects/')({
  // Drawn without Mantine: the list is the first screen after sign-in (scripts/check-bundle.mjs).
  staticData: { mantineFree: true },
  component: ProjectsPage,
})
