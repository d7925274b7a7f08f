import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ApiError, ContractError, NetworkError } from '../../src/api/client.ts'
import '../../src/app/i18n.ts'
import { RegisterInput } from '../../src/domain/user.ts'
import { FieldCode, requiredText } from '../../src/domain/validation.ts'
import {
  apiFieldErrors,
  errorMessage,
  fieldErrorText,
  issuesToFieldErrors,
} from '../../src/ui/field-error.ts'

describe('fieldErrorText', () => {
  it('has Russian text for every domain code', () => {
    for (const code of Object.values(FieldCode)) {
      const text = fieldErrorText(code)
      expect(text).not.toBe(code)
      expect(text).toMatch(/[А-Яа-яЁё]/)
    }
  })
  it('includes the limit when the issue carries one', () => {
    expect(fieldErrorText('too_short', 8)).toBe('Не короче 8 символов')
    expect(fieldErrorText('too_long', 200)).toBe('Не длиннее 200 символов')
  })
  it('shows a server sentence as it is', () => {
    expect(fieldErrorText('Такой адрес уже зарегистрирован')).toBe(
      'Такой адрес уже зарегистрирован',
    )
  })
})

describe('issuesToFieldErrors', () => {
  it('maps the first issue of each field of a domain schema', () => {
    const result = v.safeParse(RegisterInput, { name: ' ', email: 'x', password: 'short' })
    expect(result.success).toBe(false)
    if (result.success) return
    expect(issuesToFieldErrors(result.issues)).toEqual({
      name: 'Заполните поле',
      email: 'Введите корректный адрес электронной почты',
      password: 'Не короче 8 символов',
    })
  })
})

describe('server errors', () => {
  it('translates field codes from ApiError.fields', () => {
    const error = new ApiError(422, 'validation_error', 'Ошибка', {
      email: 'invalid_email',
      name: 'Имя занято',
    })
    expect(apiFieldErrors(error)).toEqual({
      email: 'Введите корректный адрес электронной почты',
      name: 'Имя занято',
    })
    expect(apiFieldErrors(new Error('x'))).toEqual({})
  })

  it('prefers the server message and explains the rest in Russian', () => {
    expect(errorMessage(new ApiError(401, 'unauthorized', 'Неверный пароль'))).toBe(
      'Неверный пароль',
    )
    expect(errorMessage(new NetworkError('Failed to fetch'))).toMatch(/^Нет соединения с сервером/)
    expect(errorMessage(new ApiError(503, 'http_503', ''))).toMatch(/сервер/i)
    expect(errorMessage(new ApiError(429, 'rate_limited', ''))).toMatch(/попыток/)
    expect(errorMessage(new ContractError('bad'))).toMatch(/неожиданный ответ/)
    expect(errorMessage('boom')).toMatch(/Что-то пошло не так/)
  })
})

describe('a field left out of the input', () => {
  it('reads as a required field, not valibot’s English', () => {
    const parsed = v.safeParse(v.object({ name: requiredText() }), {})
    if (parsed.success) throw new Error('parsed')
    expect(issuesToFieldErrors(parsed.issues)).toEqual({ name: 'Заполните поле' })
  })
})
