import { i18n } from '@lingui/core'
import { messages as ru } from '../locales/ru/messages.po'

export const LOCALES = ['ru', 'en'] as const
export type Locale = (typeof LOCALES)[number]

i18n.load('ru', ru)
i18n.activate('ru')

/** Switches the UI language; English loads on demand so Russian users never download it. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (locale === 'en') {
    const { messages } = await import('../locales/en/messages.po')
    i18n.load('en', messages)
  }
  i18n.activate(locale)
  document.documentElement.lang = locale
}

export { i18n }
