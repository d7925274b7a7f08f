import { FieldCode } from '../../src/domain/validation.ts'
import type { FieldProblem } from '../services/errors.ts'

/**
 * Russian text for the API's error bodies. The shared schemas speak in message codes (FieldCode);
 * this table is the server's translation of them, and of its own error keys.
 */
const ERROR_MESSAGES: Record<string, string> = {
  not_found: 'Не найдено',
  route_not_found: 'Такого метода API нет',
  validation: 'Проверьте введённые данные',
  bad_json: 'Тело запроса — не корректный JSON',
  bad_request: 'Неверный запрос',
  request_timeout: 'Запрос не пришёл целиком вовремя',
  unauthorized: 'Войдите в систему: сессия отсутствует или истекла',
  bad_credentials: 'Неверный адрес почты или пароль',
  rate_limited: 'Слишком много попыток. Подождите немного и попробуйте снова',
  busy: 'Сервер занят. Попробуйте ещё раз через несколько секунд',
  rate_limited_login: 'Слишком много попыток входа. Подождите немного и попробуйте снова',
  too_large: 'Слишком большой запрос',
  upload_too_large: 'Файл слишком большой',
  upload_quota:
    'Место для ваших файлов закончилось. Удалите ненужные изображения и видео из проектов и попробуйте снова',
  unsupported_media: 'Можно загрузить только изображение JPEG, PNG, WebP или GIF',
  unsupported_upload:
    'Можно загрузить только изображение JPEG, PNG, WebP или GIF либо видео MP4 или WebM',
  server: 'Внутренняя ошибка сервера. Попробуйте ещё раз позже',
  email_taken: 'Пользователь с таким адресом уже зарегистрирован',
  reset_invalid: 'Ссылка для сброса пароля недействительна или устарела',
  idempotency_mismatch: 'Этот ключ идемпотентности уже использован для другого запроса',
  idempotency_pending: 'Такой же запрос ещё выполняется. Повторите позже',
  block_type_conflict: 'Блок с этим id другого типа',
  forbidden: 'Недостаточно прав',
  last_admin: 'Нельзя удалить последнего администратора пространства',
  last_admin_leave:
    'Вы последний администратор пространства: его нельзя покинуть. Удалите пространство или попросите добавить другого администратора',
  slug_taken: 'Этот адрес уже занят другой страницей',
  bad_request_body: 'Не удалось прочитать заявку. Обновите страницу и отправьте ещё раз',
  form_broken: 'Форма повреждена. Обновите страницу и отправьте заявку ещё раз',
  form_expired: 'Страница была открыта слишком долго. Обновите её и отправьте заявку ещё раз',
  requests_limited: 'Слишком много заявок. Подождите несколько минут и отправьте ещё раз',
  requests_unavailable: 'Приём заявок временно недоступен. Попробуйте позже',
  page_unavailable: 'Страница временно недоступна. Попробуйте открыть её через минуту',
  version_conflict:
    'Запись уже изменил кто-то другой. Посмотрите её текущий вид и повторите изменение',
}

const FIELD_MESSAGES: Record<string, (requirement: unknown) => string> = {
  image_side: () => 'Изображение слишком большое: не больше 20 000 пикселей по стороне',
  [FieldCode.required]: () => 'Обязательное поле',
  [FieldCode.tooLong]: (n) =>
    typeof n === 'number' ? `Не длиннее ${n} ${plural(n)}` : 'Слишком длинное значение',
  [FieldCode.tooShort]: (n) =>
    typeof n === 'number' ? `Не короче ${n} ${plural(n)}` : 'Слишком короткое значение',
  [FieldCode.notNumber]: () => 'Нужно число',
  [FieldCode.notInteger]: () => 'Нужно целое число',
  [FieldCode.outOfRange]: () => 'Значение вне допустимого диапазона',
  [FieldCode.invalidEmail]: () => 'Неверный адрес электронной почты',
  [FieldCode.invalidUrl]: () => 'Неверная ссылка',
  [FieldCode.httpsOnly]: () => 'Ссылка должна начинаться с https://',
  [FieldCode.invalidChoice]: () => 'Выберите одно из допустимых значений',
  [FieldCode.invalidDate]: () => 'Неверная дата',
  [FieldCode.invalidColor]: () => 'Неверный цвет',
  [FieldCode.invalidSubdomain]: () => 'Неверный поддомен: латинские буквы, цифры и дефис',
  [FieldCode.invalidPhone]: () => 'Неверный номер телефона',
  [FieldCode.invalidPrice]: () => 'Неверная цена',
  [FieldCode.invalidValue]: () => 'Неверное значение',
  [FieldCode.invalidCharacters]: () => 'Текст содержит недопустимые символы',
  [FieldCode.invalidSlug]: () =>
    'Адрес страницы: от 3 до 60 символов, латинские буквы, цифры и дефис между ними',
  [FieldCode.reservedSlug]: () => 'Этот адрес занят системой, выберите другой',
  slug_taken: () => 'Этот адрес уже занят другой страницей',
  consent_required: () => 'Нужно согласие на обработку персональных данных',
  email_taken: () => 'Пользователь с таким адресом уже зарегистрирован',
  reset_invalid: () => 'Ссылка для сброса пароля недействительна или устарела',
  unknown_reference: () => 'Не найдено в этом пространстве',
  type_mismatch: () => 'Тип блока не совпадает с методом',
  not_object: () => 'Ожидается объект JSON',
  bad_key: () => 'Неверный ключ идемпотентности',
  unknown_user: () => 'Пользователь с таким адресом не зарегистрирован',
  last_admin: () => 'Нельзя удалить последнего администратора пространства',
  last_admin_leave: () =>
    'Вы последний администратор пространства: его нельзя покинуть. Удалите пространство или попросите добавить другого администратора',
  bad_version: () => 'Неверная версия: нужно целое число, например 3 или "3"',
}

function plural(n: number): string {
  const mod10 = n % 10
  const mod100 = n % 100
  if (mod10 === 1 && mod100 !== 11) return 'символа'
  return 'символов'
}

export function errorMessage(key: string): string {
  return ERROR_MESSAGES[key] ?? ERROR_MESSAGES.server!
}

/** Russian text for one field problem; codes the table does not know read as "wrong value". */
export function fieldMessage(problem: FieldProblem): string {
  const make = FIELD_MESSAGES[problem.code] ?? FIELD_MESSAGES[FieldCode.invalidValue]!
  return make(problem.requirement)
}

// ---- Visitors' requests and their delivery to the CRMs (docs/crm.md) ----

/** What the server writes into a CRM: a lead's title, tags, comment lines. */
export const CRM_TEXTS = {
  tag: 'Промо-конструктор',
  /** A lead's title by form: «Запись: {project}». */
  leadTitle: { gift: 'Подарок', price: 'Заявка', subscribe: 'Запись' },
  /** The form's name in amoCRM's metadata and in the comment. */
  formName: { gift: 'Форма подарка', price: 'Форма цены', subscribe: 'Запись на приём' },
  form: 'Форма',
  block: 'блок',
  gift: 'Подарок',
  price: 'Цена',
  specialist: 'Специалист',
  date: 'Дата',
  comment: 'Комментарий',
  page: 'Страница',
} as const

/**
 * A delivery's failure as the app shows it (`last_error`): the CRM's own words follow after a
 * colon when it gave any. Codes are stored (appeal_deliveries.error_code), the text is made when
 * answered.
 */
const DELIVERY_ERRORS: Record<string, string> = {
  timeout: 'CRM не ответила за 15 секунд',
  network: 'Не удалось связаться с CRM',
  forbidden_address: 'Адрес во внутренней сети: отправка запрещена',
  bad_url: 'Неверный адрес',
  too_large: 'CRM прислала слишком большой ответ',
  server_error: 'Ошибка на стороне CRM',
  rate_limited: 'CRM просит отправлять реже',
  bad_answer: 'CRM прислала непонятный ответ',
  spam: 'Не отправлено: спам',
  integration_disabled: 'Интеграция выключена',
  integration_deleted: 'Интеграция удалена',
  gave_up: 'Не удалось доставить за сутки',
  amo_not_connected: 'amoCRM не подключена: нажмите «Подключить amoCRM»',
  amo_reconnect: 'Требуется повторное подключение amoCRM',
  amo_unauthorized: 'amoCRM не принимает ключ доступа',
  amo_refreshing: 'Обновляется ключ доступа amoCRM',
  amo_rejected: 'amoCRM отклонила заявку',
  amo_http_402: 'Аккаунт amoCRM не оплачен',
  amo_http_403: 'amoCRM запретила доступ к аккаунту',
  amo_http_404: 'Аккаунт amoCRM не найден: проверьте поддомен',
  bitrix_credentials: 'Битрикс24 не принимает вебхук: проверьте его адрес',
  bitrix_access_denied: 'У вебхука Битрикс24 нет прав на CRM',
  bitrix_not_found: 'Битрикс24 не нашёл метод: проверьте адрес вебхука',
  bitrix_rejected: 'Битрикс24 отклонил заявку',
  bitrix_payment_required: 'Тариф Битрикс24 не позволяет работать с REST API',
  hook_rejected: 'Адрес для вебхука отклонил запрос',
}

/** `last_error` of a delivery: '' when it has none. */
export function deliveryError(code: string, detail: string): string {
  if (!code) return ''
  const known = DELIVERY_ERRORS[code]
  const http = /^(?:amo|bitrix|hook)_http_(\d{3})$/.exec(code)
  const text = known ?? (http ? `CRM ответила ошибкой ${http[1]}` : 'Ошибка отправки')
  return detail ? `${text}: ${detail}` : text
}

/** An integration's state on its page (docs/API.md, "Requests"). */
export const INTEGRATION_STATE_TEXTS = {
  connected: 'Подключено',
  not_connected: 'Требуется подключение',
  reconnect: 'Требуется повторное подключение',
  disabled: 'Выключена',
  error: 'Ошибка',
} as const

/** «Проверить»: what the harmless call said. */
export const CHECK_TEXTS = {
  amoOk: (account: string) => `amoCRM отвечает: аккаунт «${account}» доступен`,
  bitrixOk: (user: string) => `Битрикс24 отвечает: вебхук работает от имени «${user}»`,
  disabled: 'Интеграция выключена: включите её, чтобы проверить',
} as const
