import { useLingui } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { PlaceholderPage } from '../../ui/placeholder-page.tsx'

export const Route = createFileRoute('/_app/analytics')({
  // Drawn without Mantine, like the list pages (docs/app-shell.md "UI kit").
  staticData: { mantineFree: true },
  component: Page,
})

function Page() {
  const { t } = useLingui()
  return (
    <PlaceholderPage
      title={t`Аналитика`}
      description={t`Здесь появится статистика ваших промо-страниц: сколько человек их открыли, нажали на кнопки и оставили заявку.`}
    />
  )
}
