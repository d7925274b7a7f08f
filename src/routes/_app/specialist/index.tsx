import { createFileRoute } from '@tanstack/react-router'
import { SpecialistsPage } from '../../../features/directory/index.ts'

export const Route = createFileRoute('/_app/specialist/')({
  // Drawn without Mantine: a list page is a first screen (docs/performance.md).
  staticData: { mantineFree: true },
  component: SpecialistsPage,
})
