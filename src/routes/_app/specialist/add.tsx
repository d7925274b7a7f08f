import { useLingui } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { PlaceholderPage } from '../../../ui/placeholder-page.tsx'

export const Route = createFileRoute('/_app/specialist/add')({ component: Page })

function Page() {
  const { t } = useLingui()
  return <PlaceholderPage title={t`Новый специалист`} />
}
