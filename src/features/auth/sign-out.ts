import { t } from '@lingui/core/macro'
import { confirmDialog } from '../../ui/confirm.tsx'
import { setSignOutConfirm } from './session.ts'

/** Registers the dialog shown when signing out with changes that have not reached the server. */
export function installSignOutConfirm(): void {
  setSignOutConfirm((pending) =>
    confirmDialog({
      title: t`Выйти из аккаунта?`,
      message: t`Изменений, ещё не отправленных на сервер: ${pending}. После выхода они будут потеряны.`,
      confirmLabel: t`Выйти всё равно`,
      cancelLabel: t`Остаться`,
      danger: true,
    }),
  )
}
