import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSession } from '../../src/features/auth/session.ts'
import { UserMenu } from '../../src/features/auth/user-menu.tsx'
import { renderInApp } from './helpers/render-app.tsx'

beforeEach(() => {
  localStorage.clear()
  startSession({
    access_token: 't',
    expires_at: '2031-01-01T00:00:00.000Z',
    user: { id: 2, name: 'Мария Иванова', email: 'maria@example.ru', role: 'admin' },
  })
})
afterEach(() => {
  document.body.innerHTML = ''
})

describe('user menu', () => {
  it('opened from the keyboard the first time, gives the focus back to its button on Escape', async () => {
    await renderInApp(() => <UserMenu />, '/', { mantine: false })
    const user = userEvent.setup()
    ;(await screen.findByRole('button', { name: /меню пользователя/i })).focus()
    // The first opening loads the real menu, whose button replaces the light one. Loading it means
    // loading Mantine, which the test runner compiles on first import: on the shared machine that
    // took longer than the default second, so the wait is for the menu itself, up to 15 s.
    await user.keyboard('{Enter}')
    await screen.findByRole('menuitem', { name: 'Изменить имя' }, { timeout: 15_000 })
    await user.keyboard('{Escape}')
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /меню пользователя/i })).toHaveFocus(),
    )
  }, 20_000)
})
