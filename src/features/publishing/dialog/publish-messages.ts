import { i18n } from '@lingui/core'
import { messages as ru } from '../../../locales/ru/publishing.po'

// The dialog's own catalog (lingui.config.ts) comes with its chunk instead of the entry and is
// merged before any of its components renders. Its English words are fetched with the app's when
// English is switched on (features/locale), so Russian users never download them.
i18n.load('ru', ru)
