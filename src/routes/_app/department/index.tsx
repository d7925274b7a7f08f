import { useLingui } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { PlaceholderPage } from '../../../ui/placeholder-page.tsx'

export const Route = createFileRoute('/_app/department/')({ component: Page })

function Page() {
  const { t } = useLingui()
  return <PlaceholderPage title={t`Отделения`} />
}
