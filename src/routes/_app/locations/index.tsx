import { createFileRoute } from '@tanstack/react-router'
import { LocationsPage } from '../../../features/directory/locations-page.tsx'

export const Route = createFileRoute('/_app/locations/')({
  // Drawn without Mantine: a list page is a first screen (scripts/check-bundle.mjs).
  staticData: { mantineFree: true },
  component: LocationsPage,
})
