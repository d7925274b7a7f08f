import { i18n } from '@lingui/core'
import { messages as en } from '../../locales/en/editor.po'
import { messages as ru } from '../../locales/ru/editor.po'

// The editor's own catalog (lingui.config.ts) comes with the editor's chunk instead of the entry;
// loading merges it into both languages before any editor component renders.
i18n.load({ ru, en })
