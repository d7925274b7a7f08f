import { t } from '@lingui/core/macro'
import { confirmDialog } from '../../ui/confirm.tsx'

/**
 * The question asked when signing out with changes that have not reached the server; loaded when
 * it is asked (registered by `setupSession()` in src/app/setup.ts), never in the first load.
 */
export function confirmSignOut(pending: number): Promise<boolean> {
  return confirmDialog({
    title: t`Выйти из аккаунта?`,
    message: t`Изменений, ещё не отправленных на сервер: ${pending}. После выхода они будут потеряны.`,
    confirmLabel: t`Выйти всё равно`,
    cancelLabel: t`Остаться`,
    danger: true,
  })
}
