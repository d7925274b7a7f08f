import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, NetworkError } from '../../src/api/client.ts'
import { i18n } from '../../src/app/i18n.ts'
import type { AuthResponse, LoginInput } from '../../src/domain/user.ts'
import { LoginForm } from '../../src/features/auth/login-form.tsx'
import { renderInApp } from './helpers/render-app.tsx'

const answer: AuthResponse = {
  access_token: 'token-1',
  expires_at: '2030-01-01T00:00:00.000Z',
  user: { id: 1, name: 'Анна', email: 'anna@example.ru', role: 'editor' },
}

beforeEach(() => {
  localStorage.clear()
  act(() => i18n.activate('ru'))
})
afterEach(() => {
  document.body.innerHTML = ''
})

async function setup(login: (input: LoginInput) => Promise<AuthResponse>) {
  const onSignedIn = vi.fn()
  await renderInApp(() => <LoginForm onSignedIn={onSignedIn} login={login} />, '/pages/login')
  const user = userEvent.setup()
  const email = await screen.findByLabelText(/Электронная почта/)
  const password = screen.getByLabelText(/Пароль/, { selector: 'input' })
  return { onSignedIn, user, email, password }
}

describe('LoginForm', () => {
  it('has labelled fields with autocomplete hints', async () => {
    const { email, password } = await setup(vi.fn())
    expect(email).toHaveAttribute('autocomplete', 'email')
    expect(email).toHaveAttribute('type', 'email')
    expect(password).toHaveAttribute('autocomplete', 'current-password')
    expect(screen.getByRole('button', { name: 'Войти' })).toHaveAttribute('type', 'submit')
  })

  it('validates on the client first, in Russian, without calling the server', async () => {
    const login = vi.fn<(input: LoginInput) => Promise<AuthResponse>>()
    const { user, email } = await setup(login)
    await user.click(screen.getByRole('button', { name: 'Войти' }))
    expect(await screen.findAllByText('Заполните поле')).toHaveLength(2)
    expect(screen.getByLabelText(/Пароль/, { selector: 'input' })).toHaveAttribute(
      'aria-invalid',
      'true',
    )
    await user.type(email, 'not-an-email')
    await user.click(screen.getByRole('button', { name: 'Войти' }))
    expect(
      await screen.findByText('Введите корректный адрес электронной почты'),
    ).toBeInTheDocument()
    expect(login).not.toHaveBeenCalled()
  })

  it('submits with Enter, stores the session and reports success', async () => {
    const login = vi.fn(async () => answer)
    const { user, email, password, onSignedIn } = await setup(login)
    await user.type(email, '  anna@example.ru ')
    await user.type(password, 'secret-pass{Enter}')
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1))
    expect(login).toHaveBeenCalledWith({ email: 'anna@example.ru', password: 'secret-pass' })
    expect(localStorage.getItem('access_token')).toBe('token-1')
    expect(localStorage.getItem('loggedIn')).toBe('true')
  })

  it('shows a failed sign-in as a red «Ошибка» notification with the server message', async () => {
    const login = vi.fn(async () => {
      throw new ApiError(401, 'unauthorized', 'Неверная почта или пароль')
    })
    const { user, email, password, onSignedIn } = await setup(login)
    await user.type(email, 'anna@example.ru')
    await user.type(password, 'wrong-pass{Enter}')
    const notification = await waitFor(() => {
      const found = screen
        .getAllByText('Неверная почта или пароль')
        .map((message) => message.closest('.mantine-Notification-root'))
        .find(Boolean)
      if (!found) throw new Error('no notification yet')
      return found
    })
    expect(notification).not.toBeNull()
    expect(notification).toHaveTextContent('Ошибка')
    expect(notification?.getAttribute('style') ?? '').toContain('--mantine-color-red')
    expect(notification?.querySelector('svg.tabler-icon-alert-circle')).not.toBeNull()
    // …and next to the form, where the person is looking.
    const inline = screen.getAllByRole('alert').find((element) => element.closest('form') !== null)
    expect(inline).toHaveTextContent('Неверная почта или пароль')
    expect(onSignedIn).not.toHaveBeenCalled()
    expect(localStorage.getItem('access_token')).toBeNull()
  })

  it('puts server field errors on their fields, translating codes', async () => {
    const login = vi.fn(async () => {
      throw new ApiError(422, 'validation_error', 'Проверьте поля', { email: 'invalid_email' })
    })
    const { user, email, password } = await setup(login)
    await user.type(email, 'anna@example.ru')
    await user.type(password, 'whatever{Enter}')
    expect(
      await screen.findByText('Введите корректный адрес электронной почты'),
    ).toBeInTheDocument()
    expect(email).toHaveAttribute('aria-invalid', 'true')
  })

  it('says in Russian that the server cannot be reached', async () => {
    const login = vi.fn(async () => {
      throw new NetworkError('Failed to fetch')
    })
    const { user, email, password } = await setup(login)
    await user.type(email, 'anna@example.ru')
    await user.type(password, 'whatever{Enter}')
    // In the notification and next to the form.
    await waitFor(() => expect(screen.getAllByText(/^Нет соединения с сервером/)).toHaveLength(2))
  })

  it('shows the loading state while signing in and ignores a second submit', async () => {
    let finish: (value: AuthResponse) => void = () => undefined
    const login = vi.fn(
      () =>
        new Promise<AuthResponse>((resolve) => {
          finish = resolve
        }),
    )
    const { user, email, password, onSignedIn } = await setup(login)
    await user.type(email, 'anna@example.ru')
    await user.type(password, 'secret-pass{Enter}')
    const button = screen.getByRole('button', { name: 'Войти' })
    await waitFor(() => expect(button).toHaveAttribute('aria-busy', 'true'))
    await user.type(password, '{Enter}')
    expect(login).toHaveBeenCalledTimes(1)
    await act(async () => finish(answer))
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1))
  })
})
