import { i18n } from '@lingui/core'
import { setLocale, storedLocale } from '../features/locale/index.ts'
import { messages as ru } from '../locales/ru/messages.po'

export { LOCALES, type Locale } from '../features/locale/index.ts'

i18n.load('ru', ru)
i18n.activate('ru')

/** Switches the UI language; English loads on demand so Russian users never download it. */
export const activateLocale = setLocale

/** Applies the language remembered in localStorage ('locale'); Russian when none. */
export async function restoreLocale(): Promise<void> {
  const locale = storedLocale()
  try {
    await setLocale(locale)
  } catch {
    await setLocale('ru') // the English chunk failed to load (offline before it was cached)
  }
}

export { i18n }
