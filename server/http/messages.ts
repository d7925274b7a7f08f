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
