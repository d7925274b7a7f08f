import { useLingui } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { PlaceholderPage } from '../../ui/placeholder-page.tsx'

export const Route = createFileRoute('/_app/appeal')({ component: Page })

function Page() {
  const { t } = useLingui()
  return (
    <PlaceholderPage
      title={t`Обращения`}
      description={t`Здесь появятся заявки и вопросы, которые посетители оставили на ваших промо-страницах.`}
    />
  )
}
