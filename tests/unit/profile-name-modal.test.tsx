import { cleanNotifications, notificationsStore } from '@mantine/notifications'
import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../src/api/client.ts'
import type { User } from '../../src/domain/user.ts'
import {
  PROFILE_ERROR_AUTOCLOSE_MS,
  ProfileNameModal,
} from '../../src/features/auth/profile-name-modal.tsx'
import { readSession, startSession } from '../../src/features/auth/session.ts'
import { renderInApp } from './helpers/render-app.tsx'

const user: User = { id: 1, name: 'Анна', email: 'anna@example.ru', role: 'editor' }

beforeEach(() => {
  localStorage.clear()
  document.body.innerHTML = ''
  act(() => cleanNotifications())
  startSession({ access_token: 't', expires_at: '2030-01-01T00:00:00.000Z', user })
})

async function setup(updateProfile: (input: { name: string }) => Promise<User>) {
  const onClose = vi.fn()
  await renderInApp(() => (
    <ProfileNameModal opened onClose={onClose} user={user} updateProfile={updateProfile} />
  ))
  const input = await screen.findByLabelText(/Имя/)
  return { onClose, input, ui: userEvent.setup() }
}

describe('ProfileNameModal', () => {
  it('stores the updated user after success', async () => {
    const update = vi.fn(async ({ name }: { name: string }) => ({ ...user, name }))
    const { input, ui, onClose } = await setup(update)
    await ui.clear(input)
    await ui.type(input, 'Анна Петрова{Enter}')
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(update).toHaveBeenCalledWith({ name: 'Анна Петрова' })
    expect(readSession().user?.name).toBe('Анна Петрова')
  })

  it('rejects an empty name before calling the server', async () => {
    const update = vi.fn(async () => user)
    const { input, ui } = await setup(update)
    await ui.clear(input)
    await ui.type(input, '   {Enter}')
    expect(await screen.findByText('Заполните поле')).toBeInTheDocument()
    expect(update).not.toHaveBeenCalled()
  })

  it('shows a failure as a red «Ошибка» notification that stays 8800 ms', async () => {
    const update = vi.fn(async () => {
      throw new ApiError(500, 'server_error', 'Не удалось сохранить имя')
    })
    const { input, ui, onClose } = await setup(update)
    await ui.type(input, ' Петровна{Enter}')
    expect(await screen.findByText('Не удалось сохранить имя')).toBeInTheDocument()
    const shown = notificationsStore.getState().notifications
    expect(shown).toHaveLength(1)
    expect(shown[0]).toMatchObject({ color: 'red', autoClose: 8800 })
    expect(PROFILE_ERROR_AUTOCLOSE_MS).toBe(8800)
    expect(onClose).not.toHaveBeenCalled()
    expect(readSession().user?.name).toBe('Анна')
  })
})
