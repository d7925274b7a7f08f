import { i18n } from '@lingui/core'
import { messages as ru } from '../../locales/ru/appeals.po'

// «Обращения»'s own catalog (lingui.config.ts) comes with its screen instead of the entry and is
// merged before any of its components renders; its English words load with the app's when English
// is switched on (features/locale).
i18n.load('ru', ru)
