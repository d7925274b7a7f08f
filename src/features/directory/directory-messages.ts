import { i18n } from '@lingui/core'
import { messages as en } from '../../locales/en/directory.po'
import { messages as ru } from '../../locales/ru/directory.po'

// This feature's own catalog (lingui.config.ts) comes with its screens instead of the entry;
// loading merges it into both languages before any of its components renders.
i18n.load({ ru, en })
