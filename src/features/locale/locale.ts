import { i18n } from '@lingui/core'

/** Interface languages. Russian is the source; English is loaded on demand. */
export const LOCALES = ['ru', 'en'] as const
export type Locale = (typeof LOCALES)[number]
export const LOCALE_KEY = 'locale'

let enLoaded = false

/**
 * Every English catalog: the app's and the features' own (lingui.config.ts). They are fetched
 * together when English is switched on, and never for Russian users; a feature's Russian words come
 * with its chunk (its `*-messages.ts`).
 */
const ENGLISH_CATALOGS = [
  () => import('../../locales/en/messages.po'),
  () => import('../../locales/en/editor.po'),
  () => import('../../locales/en/directory.po'),
  () => import('../../locales/en/integrations.po'),
  () => import('../../locales/en/publishing.po'),
  () => import('../../locales/en/appeals.po'),
]

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
}

export function storedLocale(): Locale {
  try {
    const raw = localStorage.getItem(LOCALE_KEY)
    return isLocale(raw) ? raw : 'ru'
  } catch {
    return 'ru'
  }
}

/** Activates `locale`, remembers it in localStorage ('locale') and sets <html lang>. */
export async function setLocale(locale: Locale): Promise<void> {
  if (locale === 'en' && !enLoaded) {
    const catalogs = await Promise.all(ENGLISH_CATALOGS.map((load) => load()))
    for (const { messages } of catalogs) i18n.load('en', messages)
    enLoaded = true
  }
  i18n.activate(locale)
  document.documentElement.lang = locale
  try {
    localStorage.setItem(LOCALE_KEY, locale)
  } catch {
    // Not remembered across reloads when storage is blocked; the switch still works now.
  }
}
