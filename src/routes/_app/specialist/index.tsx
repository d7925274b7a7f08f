import { createFileRoute } from '@tanstack/react-router'
import { SpecialistsPage } from '../../../features/directory/specialists-page.tsx'

export const Route = createFileRoute('/_app/specialist/')({
  // Drawn without Mantine: a list page is a first screen (scripts/check-bundle.mjs).
  staticData: { mantineFree: true },
  component: SpecialistsPage,
})
