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

export function messageTexts() {
  return {
    back: t`Вернуться на страницу`,
    limited: [
      t`Слишком много заявок`,
      t`С вашего адреса или на эту страницу только что пришло много заявок. Подождите несколько минут и отправьте ещё раз.`,
    ] as const,
    expired: [
      t`Форма устарела`,
      t`Страница была открыта слишком долго. Откройте её заново и отправьте заявку ещё раз.`,
    ] as const,
  }
}

export function privacyTexts(page: string) {
  return {
    title: t`Обработка персональных данных`,
    paragraphs: [
      t`Оставляя заявку на странице «${page}», вы соглашаетесь на обработку указанных вами имени, телефона и комментария в соответствии с Федеральным законом № 152-ФЗ «О персональных данных».`,
      t`Данные нужны только для того, чтобы связаться с вами по заявке. Они передаются организации, разместившей страницу, и её CRM-системе и не передаются третьим лицам.`,
      t`Вы можете отозвать согласие, обратившись к организации, разместившей страницу.`,
    ],
  }
}
