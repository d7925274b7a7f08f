import { t } from '@lingui/core/macro'
import '../editor/editor-messages.ts'

/** The published page's own words (its blocks carry theirs). Called once the locale is active. */
export function pageTexts() {
  return { untitled: t`Промо-страница` }
}

export function notFoundTexts() {
  return {
    title: t`Страница не найдена`,
    body: t`Возможно, её сняли с публикации или в адресе опечатка.`,
  }
}
