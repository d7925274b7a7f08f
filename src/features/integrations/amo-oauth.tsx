import './integration-messages.ts'
import { Trans } from '@lingui/react/macro'
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react'
import { useEffect, useState } from 'react'
import type { AmoOauthOutcome } from '../../domain/amo-oauth.ts'
import { Alert } from '../../ui/alert.tsx'

// Kept apart from the state panel: the amoCRM list page (a first screen) shows the notice of a
// stale link and needs nothing else of it.

/**
 * The outcome amoCRM's redirect brought (`?amo_oauth=`), kept for as long as the page is open,
 * while `drop` takes the parameter out of the address at once (a reload or a shared link does not
 * say it again).
 */
export function useAmoOauthOutcome(
  fromAddress: AmoOauthOutcome | undefined,
  drop: () => void,
): AmoOauthOutcome | null {
  const [outcome, setOutcome] = useState<AmoOauthOutcome | null>(fromAddress ?? null)
  // Another redirect back while the page is open: its outcome replaces the one shown.
  if (fromAddress && fromAddress !== outcome) setOutcome(fromAddress)
  useEffect(() => {
    if (fromAddress) drop()
  }, [fromAddress, drop])
  return outcome
}

/**
 * What amoCRM's redirect back says (`?amo_oauth=`, docs/API.md): shown once, in Russian; the page
 * drops the parameter from the address as soon as it has read it.
 */
export function AmoOauthNotice({ outcome }: { outcome: AmoOauthOutcome }) {
  const ok = outcome === 'connected'
  return (
    <Alert
      color={ok ? 'teal' : 'red'}
      icon={ok ? IconCircleCheck : IconAlertCircle}
      role="alert"
      data-testid="amo-oauth-notice"
      title={ok ? <Trans>amoCRM подключена</Trans> : <Trans>amoCRM не подключена</Trans>}
    >
      {outcome === 'connected' ? (
        <Trans>Заявки будут уходить в amoCRM, в том числе ожидавшие подключения.</Trans>
      ) : outcome === 'denied' ? (
        <Trans>
          Вы отказались предоставить доступ в amoCRM. Чтобы заявки уходили в CRM, нажмите
          «Подключить amoCRM» и разрешите доступ.
        </Trans>
      ) : outcome === 'other_account' ? (
        <Trans>
          Доступ предоставлен в другом аккаунте amoCRM, чем указан в интеграции. Войдите в amoCRM
          под нужным аккаунтом или исправьте поддомен и подключите снова.
        </Trans>
      ) : outcome === 'refused' ? (
        <Trans>
          amoCRM не приняла код подключения. Проверьте ID и секретный ключ интеграции и адрес
          перенаправления, затем подключите снова.
        </Trans>
      ) : (
        <Trans>
          Ссылка подключения устарела или уже использована. Откройте интеграцию и нажмите
          «Подключить amoCRM» ещё раз.
        </Trans>
      )}
    </Alert>
  )
}
