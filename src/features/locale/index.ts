// The interface's language: its switch in the header, and the stored choice the app starts with.
export { LanguageSwitch } from './language-switch.tsx'
export { LOCALES, setLocale, storedLocale, type Locale } from './locale.ts'
