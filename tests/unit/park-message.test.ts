import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/api/client.ts'
import { parkMessage } from '../../src/sync/engine.ts'

/** The message a refused change is parked with (shown in the list of rejected changes). */
describe('parkMessage', () => {
  it('adds the field messages to the server’s message', () => {
    const error = new ApiError(422, 'validation_error', 'Проверьте поля', {
      name: 'Введите название',
      slug: 'Только латиница',
    })
    expect(parkMessage(error)).toBe('Проверьте поля: Введите название; Только латиница')
  })

  it('says a field message the server’s message already says once', () => {
    const error = new ApiError(409, 'slug_taken', 'Этот адрес уже занят другой страницей', {
      slug: 'Этот адрес уже занят другой страницей',
    })
    expect(parkMessage(error)).toBe('Этот адрес уже занят другой страницей')
  })
})
