import { createFileRoute } from '@tanstack/react-router'
import { ProjectsPage } from '../../../features/projects/index.ts'

export const Route = createFileRoute('/_app/projects/')({
  // Drawn without Mantine: the list is the first screen after sign-in (docs/performance.md).
  staticData: { mantineFree: true },
  component: ProjectsPage,
})
