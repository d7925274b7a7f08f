import { t } from '@lingui/core/macro'
import type * as v from 'valibot'
import { ApiError, ContractError, NetworkError } from '../api/client.ts'
import { FieldCode, issueCode } from '../domain/validation.ts'

/**
 * Turns the domain's message codes (src/domain/validation.ts FieldCode) and the server's messages
 * into text for the user. A code becomes Russian (or English) through Lingui; anything that is not a
 * known code is the server's own Russian sentence and is shown as it is.
 */
export function fieldErrorText(message: string, requirement?: unknown): string {
  const limit = typeof requirement === 'number' ? requirement : null
  switch (message) {
    case FieldCode.required:
      return t`Заполните поле`
    case FieldCode.tooLong:
      return limit !== null ? t`Не длиннее ${limit} символов` : t`Слишком длинное значение`
    case FieldCode.tooShort:
      return limit !== null ? t`Не короче ${limit} символов` : t`Слишком короткое значение`
    case FieldCode.notNumber:
      return t`Введите число`
    case FieldCode.notInteger:
      return t`Введите целое число`
    case FieldCode.outOfRange:
      return t`Значение вне допустимого диапазона`
    case FieldCode.invalidEmail:
      return t`Введите корректный адрес электронной почты`
    case FieldCode.invalidUrl:
      return t`Введите корректную ссылку`
    case FieldCode.httpsOnly:
      return t`Ссылка должна начинаться с https://`
    case FieldCode.invalidChoice:
      return t`Выберите значение из списка`
    case FieldCode.invalidDate:
      return t`Введите корректную дату`
    case FieldCode.invalidColor:
      return t`Введите цвет в формате #RRGGBB`
    case FieldCode.invalidSubdomain:
      return t`Некорректный поддомен`
    case FieldCode.invalidPhone:
      return t`Введите корректный номер телефона`
    case FieldCode.invalidPrice:
      return t`Введите цену, например «1 500 ₽»`
    case FieldCode.invalidValue:
      return t`Некорректное значение`
    case FieldCode.invalidCharacters:
      return t`Уберите из текста недопустимые символы`
    case FieldCode.invalidSlug:
      return t`От 3 до 60 символов: латинские буквы, цифры и дефис между ними`
    case FieldCode.reservedSlug:
      return t`Этот адрес занят системой, выберите другой`
    default:
      return message.trim() ? message : t`Некорректное значение`
  }
}

/** One message per field from valibot issues (the first issue of each field wins). */
export function issuesToFieldErrors(
  issues: readonly v.BaseIssue<unknown>[],
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const issue of issues) {
    const key = issue.path?.map((item) => String(item.key)).join('.') ?? '_'
    if (!(key in out)) out[key] = fieldErrorText(issueCode(issue), issue.requirement)
  }
  return out
}

/** The server's per-field errors of an ApiError, translated when they are codes. */
export function apiFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {}
  const out: Record<string, string> = {}
  for (const [field, message] of Object.entries(error.fields)) out[field] = fieldErrorText(message)
  return out
}

/** A sentence for a failed call: the server's own message, or ours for the network and faults. */
export function errorMessage(error: unknown): string {
  if (error instanceof NetworkError)
    return t`Нет соединения с сервером. Проверьте подключение к интернету и попробуйте ещё раз.`
  if (error instanceof ApiError) {
    if (error.message.trim()) return error.message
    if (error.status === 401) return t`Требуется вход в систему.`
    if (error.status === 403) return t`Недостаточно прав для этого действия.`
    if (error.status === 429) return t`Слишком много попыток. Подождите немного и повторите.`
    if (error.status >= 500) return t`Ошибка на сервере. Попробуйте ещё раз позже.`
    const status = error.status
    return t`Не удалось выполнить запрос (код ${status}).`
  }
  if (error instanceof ContractError) return t`Сервер вернул неожиданный ответ. Попробуйте позже.`
  return t`Что-то пошло не так. Попробуйте ещё раз.`
}
