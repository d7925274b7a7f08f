// The bench page imports the app's i18n, which imports Lingui catalogs (see src/po.d.ts).
declare module '*.po' {
  import type { Messages } from '@lingui/core'
  export const messages: Messages
}
