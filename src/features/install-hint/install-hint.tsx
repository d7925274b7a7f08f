import { t } from '@lingui/core/macro'
import { IconShare2 } from '@tabler/icons-react'
import { showNotice } from '../../ui/notify.tsx'
import { currentInstallEnvironment, needsIosInstallHint } from './ios-install.ts'

/** Set once the user closes the hint: it is not shown again on this device. */
export const INSTALL_HINT_DISMISSED_KEY = 'promo-builder:ios-install-hint-dismissed'

function dismissed(): boolean {
  try {
    return localStorage.getItem(INSTALL_HINT_DISMISSED_KEY) === '1'
  } catch {
    return false
  }
}

function remember(): void {
  try {
    localStorage.setItem(INSTALL_HINT_DISMISSED_KEY, '1')
  } catch {
    // Private mode or full storage: the hint may come back next time, nothing else is affected.
  }
}

/** Shows how to install the app on iPad/iPhone Safari, until the user closes the notice. */
export function showIosInstallHint(): void {
  if (dismissed() || !needsIosInstallHint(currentInstallEnvironment())) return
  showNotice({
    id: 'ios-install-hint',
    color: 'blue',
    title: t`Приложение на экране «Домой»`,
    message: t`Установите приложение: нажмите «Поделиться» → «На экран Домой»`,
    icon: <IconShare2 size={20} />,
    closeLabel: t`Больше не показывать`,
    onClose: remember,
  })
}
