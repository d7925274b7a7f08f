import { Trans, useLingui } from '@lingui/react/macro'
import { IconLogout, IconUserMinus } from '@tabler/icons-react'
import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { ApiError, NetworkError } from '../../api/client.ts'
import {
  addMember,
  cancelInvitation,
  leaveWorkspaceCall,
  listMembers,
  removeMember,
} from '../../api/members.ts'
import type { PendingInvitation, WorkspaceMember as Member } from '../../domain/workspace.ts'
import { leaveWorkspace } from '../../sync/client.ts'
import { nestQuotes } from '../../domain/quotes.ts'
import { readSession } from '../auth/index.ts'
import { Button, IconButton } from '../../ui/button.tsx'
import { TextInput } from '../../ui/text-input.tsx'
import { confirmDialog } from '../../ui/confirm.tsx'
import { notifyError, notifySuccess } from '../../ui/notify.tsx'
import classes from './workspace-members.module.css'

type Loaded =
  { members: Member[]; invitations: PendingInvitation[] } | { error: 'offline' | 'failed' } | null

/**
 * The people of a workspace: everyone sees the list; an admin invites a person by e-mail, sees
 * the invitations still waiting (and withdraws them) and removes members (the last admin stays);
 * a member leaves. Members are managed online only: the list is the server's, never a stale copy.
 */
export function WorkspaceMembers({
  workspaceId,
  workspaceName,
}: {
  workspaceId: number
  workspaceName: string
}) {
  const { t } = useLingui()
  const [loaded, setLoaded] = useState<Loaded>(null)
  const load = useCallback(() => {
    listMembers(workspaceId).then(
      (entries) =>
        setLoaded({
          members: entries.filter((e): e is Member => !('pending' in e)),
          invitations: entries.filter((e): e is PendingInvitation => 'pending' in e),
        }),
      (error: unknown) =>
        setLoaded({ error: error instanceof NetworkError ? 'offline' : 'failed' }),
    )
  }, [workspaceId])
  useEffect(load, [load])

  if (loaded === null)
    return (
      <p className={classes.note} role="status">
        <Trans>Загружаем участников…</Trans>
      </p>
    )
  if ('error' in loaded)
    return (
      <div className={classes.note} role="status">
        {loaded.error === 'offline' ? (
          <Trans>Участники видны только при подключении к сети.</Trans>
        ) : (
          <Trans>Не удалось загрузить участников.</Trans>
        )}{' '}
        <Button variant="subtle" size="compact-sm" onClick={load}>
          <Trans>Повторить</Trans>
        </Button>
      </div>
    )

  const { members, invitations } = loaded
  const me = readSession().user?.id
  const admin = members.some((m) => m.user_id === me && m.role === 'admin')
  const admins = members.filter((m) => m.role === 'admin').length
  const mayLeave = members.some((m) => m.user_id === me) && !(admin && admins <= 1)
  const workspace = nestQuotes(workspaceName)

  const cancel = async (invitation: PendingInvitation) => {
    const email = invitation.email
    try {
      await cancelInvitation(invitation.invitation_id)
      notifySuccess(t`Приглашение для ${email} отменено`)
      load()
    } catch (error) {
      notifyError(memberError(error, t`Не удалось отменить приглашение. Попробуйте ещё раз.`))
    }
  }

  const leave = async () => {
    const ok = await confirmDialog({
      title: t`Покинуть пространство «${workspace}»?`,
      message: t`Вы больше не увидите его проекты и справочники. Вернуться можно только по новому приглашению администратора.`,
      confirmLabel: t`Покинуть`,
      danger: true,
    })
    if (!ok) return
    try {
      await leaveWorkspace(workspaceId, () => leaveWorkspaceCall(workspaceId))
      notifySuccess(t`Вы покинули пространство «${workspace}»`)
    } catch (error) {
      notifyError(memberError(error, t`Не удалось покинуть пространство. Попробуйте ещё раз.`))
    }
  }

  const remove = async (member: Member) => {
    const name = nestQuotes(member.name || member.email)
    const ok = await confirmDialog({
      title: t`Убрать «${name}» из пространства?`,
      message: t`Человек больше не увидит проекты и справочники этого пространства. Его учётная запись останется.`,
      confirmLabel: t`Убрать`,
      danger: true,
    })
    if (!ok) return
    try {
      await removeMember(workspaceId, member.user_id)
      notifySuccess(t`«${name}» больше не участник`)
      load()
    } catch (error) {
      notifyError(memberError(error, t`Не удалось убрать участника. Попробуйте ещё раз.`))
    }
  }

  return (
    <div className={classes.members} data-testid={`members-${workspaceId}`}>
      <ul className={classes.list} aria-label={t`Участники`}>
        {members.map((member) => {
          const shown = member.name || member.email
          const lastAdmin = member.role === 'admin' && admins <= 1
          return (
            <li key={member.user_id} className={classes.member}>
              <div className={classes.who}>
                <span className={classes.name}>{member.name || member.email}</span>
                <span className={classes.meta}>
                  {member.email} · {member.role === 'admin' ? t`администратор` : t`редактор`}
                  {member.user_id === me ? ` · ${t`это вы`}` : ''}
                </span>
              </div>
              {admin ? (
                <IconButton
                  variant="subtle"
                  color="red"
                  aria-label={t`Убрать ${shown}`}
                  title={lastAdmin ? t`Последнего администратора убрать нельзя` : undefined}
                  disabled={lastAdmin}
                  onClick={() => void remove(member)}
                >
                  <IconUserMinus size={20} aria-hidden />
                </IconButton>
              ) : null}
            </li>
          )
        })}
        {invitations.map((invitation) => (
          <li
            key={`invitation-${invitation.invitation_id}`}
            className={classes.member}
            data-testid="pending-invitation"
          >
            <div className={classes.who}>
              <span className={classes.name}>{invitation.email}</span>
              <span className={classes.meta}>
                <Trans>приглашение ждёт ответа</Trans>
              </span>
            </div>
            <Button variant="subtle" size="compact-sm" onClick={() => void cancel(invitation)}>
              <Trans>Отменить</Trans>
            </Button>
          </li>
        ))}
      </ul>
      {admin ? <AddMember workspaceId={workspaceId} onAdded={load} /> : null}
      {mayLeave ? (
        <Button
          variant="subtle"
          color="red"
          leftSection={<IconLogout size={18} aria-hidden />}
          onClick={() => void leave()}
        >
          <Trans>Покинуть пространство</Trans>
        </Button>
      ) : null}
    </div>
  )
}

function memberError(error: unknown, fallback: string): string {
  if (error instanceof NetworkError) return fallback
  if (error instanceof ApiError && error.message) return error.message
  return fallback
}

function AddMember({ workspaceId, onAdded }: { workspaceId: number; onAdded: () => void }) {
  const { t } = useLingui()
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const value = email.trim()
    if (!value) {
      setError(t`Введите адрес почты`)
      return
    }
    setBusy(true)
    try {
      const invited = await addMember(workspaceId, value)
      setEmail('')
      setError(undefined)
      const address = invited.email
      notifySuccess(t`Приглашение отправлено: ${address}`)
      onAdded()
    } catch (failure) {
      if (failure instanceof ApiError && failure.fields.email) setError(failure.fields.email)
      else if (failure instanceof NetworkError)
        setError(t`Нет связи с сервером. Пригласить участника можно при подключении к сети.`)
      else setError(memberError(failure, t`Не удалось отправить приглашение. Попробуйте ещё раз.`))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className={classes.add} onSubmit={(event) => void submit(event)} noValidate>
      <TextInput
        className={classes.email}
        type="email"
        label={t`Пригласить участника по адресу почты`}
        description={t`Приглашение появится у человека, когда он войдёт в приложение с этим адресом`}
        value={email}
        onChange={(event) => {
          setEmail(event.currentTarget.value)
          setError(undefined)
        }}
        error={error}
        autoComplete="off"
      />
      <Button type="submit" disabled={busy}>
        <Trans>Пригласить</Trans>
      </Button>
    </form>
  )
}
