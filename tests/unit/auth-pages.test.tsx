import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, NetworkError } from '../../src/api/client.ts'
import { Providers } from '../../src/app/providers.tsx'
import { setupSession } from '../../src/app/setup.ts'
import type { AuthResponse, LoginInput } from '../../src/domain/user.ts'
import { LockScreen } from '../../src/features/auth/lock-screen.tsx'
import { ResetPasswordForm } from '../../src/features/auth/reset-password-form.tsx'
import {
  readSession,
  setUnsyncedChangesHook,
  signOut,
  startSession,
} from '../../src/features/auth/session.ts'
import { installBrowserStubs, renderInApp } from './helpers/render-app.tsx'

const user = { id: 2, name: 'Мария Иванова', email: 'maria@example.ru', role: 'admin' as const }
const answer: AuthResponse = {
  access_token: 'fresh',
  expires_at: '2031-01-01T00:00:00.000Z',
  user,
}

beforeEach(() => {
  localStorage.clear()
  setUnsyncedChangesHook(async () => 0)
})
afterEach(() => {
  document.body.innerHTML = ''
})

describe('lock screen', () => {
  it('greets the stored user and signs in again with the stored e-mail', async () => {
    startSession({ ...answer, access_token: 'old' })
    localStorage.setItem('unrelated-local-data', 'kept')
    const login = vi.fn(async (_input: LoginInput) => answer)
    const onUnlocked = vi.fn()
    await renderInApp(() => <LockScreen onUnlocked={onUnlocked} login={login} />)
    expect(await screen.findByText('Мария Иванова')).toBeInTheDocument()
    expect(screen.getByText('maria@example.ru')).toBeInTheDocument()
    const password = screen.getByLabelText(/Пароль/, { selector: 'input' })
    expect(password).toHaveAttribute('autocomplete', 'current-password')
    await userEvent.type(password, 'secret-pass{Enter}')
    await waitFor(() => expect(onUnlocked).toHaveBeenCalled())
    expect(login).toHaveBeenCalledWith({ email: 'maria@example.ru', password: 'secret-pass' })
    expect(readSession().token).toBe('fresh')
    expect(localStorage.getItem('unrelated-local-data')).toBe('kept')
  })

  it('points to the sign-in page when nobody is stored', async () => {
    await renderInApp(() => <LockScreen onUnlocked={vi.fn()} />)
    expect(await screen.findByRole('link', { name: 'Перейти ко входу' })).toHaveAttribute(
      'href',
      '/pages/login',
    )
  })
})

describe('reset password', () => {
  it('checks that both passwords match before calling the server', async () => {
    const onDone = vi.fn()
    await renderInApp(() => <ResetPasswordForm token="abc" onDone={onDone} />)
    const [first, second] = screen.getAllByLabelText(/пароль/i, { selector: 'input' })
    if (!first || !second) throw new Error('password fields missing')
    expect(first).toHaveAttribute('autocomplete', 'new-password')
    await userEvent.type(first, 'long-enough-1')
    await userEvent.type(second, 'long-enough-2{Enter}')
    expect(await screen.findByText('Пароли не совпадают')).toBeInTheDocument()
    await userEvent.clear(first)
    await userEvent.type(first, 'short{Enter}')
    // The broken rule is said once, as the field's error, not again by the hint above it.
    await waitFor(() => expect(screen.getAllByText('Не короче 8 символов')).toHaveLength(1))
    // It is the field's error: the input is described by it.
    expect(first).toHaveAccessibleDescription('Не короче 8 символов')
    expect(first).toHaveAttribute('aria-invalid', 'true')
    expect(second).toHaveAttribute('aria-invalid', 'true')
    expect(onDone).not.toHaveBeenCalled()
  })

  it('says when the server refuses the link and offers to send a new one', async () => {
    const reset = vi.fn(async () => {
      throw new ApiError(422, 'validation_error', 'Проверьте поля', { token: 'reset_invalid' })
    })
    const onDone = vi.fn()
    await renderInApp(() => <ResetPasswordForm token="used" onDone={onDone} reset={reset} />)
    const [first, second] = screen.getAllByLabelText(/пароль/i, { selector: 'input' })
    if (!first || !second) throw new Error('password fields missing')
    await userEvent.type(first, 'long-enough-1')
    await userEvent.type(second, 'long-enough-1{Enter}')
    expect(
      await screen.findByText(/уже использована, заменена более новой или устарела/),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Отправить новую ссылку' })).toHaveAttribute(
      'href',
      '/pages/forgot-password',
    )
    expect(onDone).not.toHaveBeenCalled()
  })

  it('shows a failure that names no field next to the form', async () => {
    const reset = vi.fn(async () => {
      throw new NetworkError('Failed to fetch')
    })
    await renderInApp(() => <ResetPasswordForm token="abc" onDone={vi.fn()} reset={reset} />)
    const [first, second] = screen.getAllByLabelText(/пароль/i, { selector: 'input' })
    if (!first || !second) throw new Error('password fields missing')
    await userEvent.type(first, 'long-enough-1')
    await userEvent.type(second, 'long-enough-1{Enter}')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent(/^Нет соединения с сервером/)
    expect(alert.closest('form')).not.toBeNull()
  })

  it('explains a link without a token', async () => {
    await renderInApp(() => <ResetPasswordForm token="" onDone={vi.fn()} />)
    expect(await screen.findByText(/нет кода сброса/)).toBeInTheDocument()
  })
})

describe('sign out with unsynced changes', () => {
  it('asks in a dialog and keeps the session when the user stays', async () => {
    installBrowserStubs()
    setupSession()
    startSession(answer)
    setUnsyncedChangesHook(async () => 4)
    render(<Providers>{null}</Providers>)
    let result: Promise<boolean> = Promise.resolve(true)
    act(() => {
      result = signOut()
    })
    expect(await screen.findByText('Выйти из аккаунта?')).toBeInTheDocument()
    expect(screen.getByText(/не отправленных на сервер: 4/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Остаться' }))
    expect(await result).toBe(false)
    expect(readSession().token).toBe('fresh')

    act(() => {
      result = signOut()
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Выйти всё равно' }))
    expect(await result).toBe(true)
    expect(readSession().token).toBeNull()
  })
})
