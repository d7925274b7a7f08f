import { createFileRoute } from '@tanstack/react-router'
import { LocationsPage } from '../../../features/directory/index.ts'

export const Route = createFileRoute('/_app/locations/')({
  // Drawn without Mantine: a list page is a first screen (docs/performance.md).
  staticData: { mantineFree: true },
  component: LocationsPage,
})
