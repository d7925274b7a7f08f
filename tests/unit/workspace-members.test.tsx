import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../src/api/client.ts'
import { addMember, listMembers, removeMember } from '../../src/api/members.ts'
import type { WorkspaceMember as Member } from '../../src/domain/workspace.ts'
import { WorkspaceMembers } from '../../src/features/workspaces/workspace-members.tsx'
import { ConfirmHost } from '../../src/ui/confirm.tsx'
import { renderInApp } from './helpers/render-app.tsx'

vi.mock('../../src/api/members.ts', () => ({
  listMembers: vi.fn(),
  addMember: vi.fn(),
  removeMember: vi.fn(),
}))

const admin: Member = { user_id: 1, name: 'Анна', email: 'anna@example.ru', role: 'admin' }
const editor: Member = { user_id: 2, name: 'Борис', email: 'boris@example.ru', role: 'editor' }

function signInAs(member: Member) {
  localStorage.setItem(
    'userInfo',
    JSON.stringify({
      id: member.user_id,
      name: member.name,
      email: member.email,
      role: member.role,
    }),
  )
}

beforeEach(() => {
  vi.mocked(listMembers).mockReset()
  vi.mocked(addMember).mockReset()
  vi.mocked(removeMember).mockReset()
})

describe('members of a workspace', () => {
  it('lets an admin add a person by e-mail and remove a member, but not the last admin', async () => {
    signInAs(admin)
    vi.mocked(listMembers).mockResolvedValue([admin, editor])
    vi.mocked(removeMember).mockResolvedValue({})
    vi.mocked(addMember).mockRejectedValueOnce(
      new ApiError(422, 'validation_error', 'Проверьте введённые данные', {
        email: 'Пользователь с таким адресом не зарегистрирован',
      }),
    )
    await renderInApp(() => (
      <>
        <WorkspaceMembers workspaceId={7} />
        <ConfirmHost />
      </>
    ))
    const list = await screen.findByRole('list', { name: 'Участники' })
    expect(within(list).getByText('Борис')).toBeInTheDocument()
    expect(within(list).getByText(/anna@example\.ru · администратор · это вы/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Убрать Анна' })).toBeDisabled()

    await userEvent.type(screen.getByLabelText(/Добавить участника/), 'nobody@example.ru')
    await userEvent.click(screen.getByRole('button', { name: 'Добавить' }))
    expect(
      await screen.findByText('Пользователь с таким адресом не зарегистрирован'),
    ).toBeInTheDocument()
    expect(addMember).toHaveBeenCalledWith(7, 'nobody@example.ru')

    await userEvent.click(screen.getByRole('button', { name: 'Убрать Борис' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Убрать' }))
    await waitFor(() => expect(removeMember).toHaveBeenCalledWith(7, 2))
  })

  it('shows an editor the list only', async () => {
    signInAs(editor)
    vi.mocked(listMembers).mockResolvedValue([admin, editor])
    await renderInApp(() => <WorkspaceMembers workspaceId={7} />)
    expect(await screen.findByText('Анна')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Убрать/ })).toBeNull()
    expect(screen.queryByLabelText(/Добавить участника/)).toBeNull()
  })
})
