import { Trans, useLingui } from '@lingui/react/macro'
import { IconKey } from '@tabler/icons-react'
import { ButtonLink } from '../../ui/links.tsx'
import { StatusPage } from '../../ui/status-page.tsx'

/** /callback: sign-in through third-party providers is not offered; point to the sign-in form. */
export function CallbackPage() {
  const { t } = useLingui()
  return (
    <StatusPage
      icon={IconKey}
      title={t`Вход через внешние сервисы недоступен`}
      description={t`Войдите с помощью электронной почты и пароля.`}
      actions={
        <ButtonLink to="/pages/login">
          <Trans>Перейти ко входу</Trans>
        </ButtonLink>
      }
    />
  )
}
