import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import {
  addMember,
  cancelInvitation,
  leaveWorkspaceCall,
  listMembers,
  removeMember,
} from '../../src/api/members.ts'
import type { PendingInvitation, WorkspaceMember as Member } from '../../src/domain/workspace.ts'
import { WorkspaceMembers } from '../../src/features/workspaces/workspace-members.tsx'
import { leaveWorkspace } from '../../src/sync/client.ts'
import { ConfirmHost } from '../../src/ui/confirm.tsx'
import { renderInApp } from './helpers/render-app.tsx'

vi.mock('../../src/api/members.ts', () => ({
  listMembers: vi.fn(),
  addMember: vi.fn(),
  removeMember: vi.fn(),
  cancelInvitation: vi.fn(),
  leaveWorkspaceCall: vi.fn(),
}))
vi.mock('../../src/sync/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/sync/client.ts')>()),
  leaveWorkspace: vi.fn(),
}))

const admin: Member = { user_id: 1, name: 'Анна', email: 'anna@example.ru', role: 'admin' }
const editor: Member = { user_id: 2, name: 'Борис', email: 'boris@example.ru', role: 'editor' }
const waiting: PendingInvitation = {
  invitation_id: 5,
  email: 'vera@example.ru',
  invited_by: 'Анна',
  created_at: '2026-11-29T10:00:00Z',
  pending: true,
}

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
  for (const fn of [listMembers, addMember, removeMember, cancelInvitation, leaveWorkspaceCall])
    vi.mocked(fn).mockReset()
  vi.mocked(leaveWorkspace).mockReset()
})

describe('members of a workspace', () => {
  it('lets an admin invite by e-mail, withdraw an invitation and remove a member, but not the last admin', async () => {
    signInAs(admin)
    vi.mocked(listMembers).mockResolvedValue([admin, editor, waiting])
    vi.mocked(removeMember).mockResolvedValue({})
    vi.mocked(cancelInvitation).mockResolvedValue({})
    vi.mocked(addMember).mockResolvedValue({ invited: true, email: 'nobody@example.ru' })
    await renderInApp(() => (
      <>
        <WorkspaceMembers workspaceId={7} workspaceName="Клиника" />
        <ConfirmHost />
      </>
    ))
    const list = await screen.findByRole('list', { name: 'Участники' })
    expect(within(list).getByText('Борис')).toBeInTheDocument()
    expect(within(list).getByText(/anna@example\.ru · администратор · это вы/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Убрать Анна' })).toBeDisabled()
    // The last admin may not leave either.
    expect(screen.queryByRole('button', { name: 'Покинуть пространство' })).toBeNull()

    // The invitation still waiting, and withdrawn.
    const pending = within(list).getByTestId('pending-invitation')
    expect(within(pending).getByText('vera@example.ru')).toBeInTheDocument()
    await userEvent.click(within(pending).getByRole('button', { name: 'Отменить' }))
    await waitFor(() => expect(cancelInvitation).toHaveBeenCalledWith(5))

    await userEvent.type(screen.getByLabelText(/Пригласить участника/), 'nobody@example.ru')
    await userEvent.click(screen.getByRole('button', { name: 'Пригласить' }))
    await waitFor(() => expect(addMember).toHaveBeenCalledWith(7, 'nobody@example.ru'))

    await userEvent.click(screen.getByRole('button', { name: 'Убрать Борис' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Убрать' }))
    await waitFor(() => expect(removeMember).toHaveBeenCalledWith(7, 2))
  })

  it('shows an editor the list only, and lets them leave', async () => {
    signInAs(editor)
    vi.mocked(listMembers).mockResolvedValue([admin, editor])
    vi.mocked(leaveWorkspace).mockResolvedValue()
    await renderInApp(() => (
      <>
        <WorkspaceMembers workspaceId={7} workspaceName="Клиника" />
        <ConfirmHost />
      </>
    ))
    expect(await screen.findByText('Анна')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Убрать/ })).toBeNull()
    expect(screen.queryByLabelText(/Пригласить участника/)).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Покинуть пространство' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Покинуть' }))
    await waitFor(() => expect(leaveWorkspace).toHaveBeenCalledWith(7, expect.any(Function)))
  })
})
