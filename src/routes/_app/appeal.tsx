import { useLingui } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { PlaceholderPage } from '../../ui/placeholder-page.tsx'

export const Route = createFileRoute('/_app/appeal')({
  // Drawn without Mantine, like the list pages (docs/app-shell.md "UI kit").
  staticData: { mantineFree: true },
  component: Page,
})

function Page() {
  const { t } = useLingui()
  return (
    <PlaceholderPage
      title={t`Обращения`}
      description={t`Здесь появятся заявки и вопросы, которые посетители оставили на ваших промо-страницах.`}
    />
  )
}
