import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { useCallback, type ReactNode } from 'react'
import { useCurrentWorkspaceId, useRecord } from '../../mirror/live.ts'
import type { RecordKind, RecordOf } from '../../data/types.ts'
import { useRefresh } from '../../sync/client.ts'
import { DeleteButton } from '../../ui/delete-button.tsx'
import { notifySuccess } from '../../ui/notify.tsx'
import type { RecordFormProps } from './form-props.ts'
import { NoWorkspace } from './no-workspace.tsx'
import { ParkedNotice, parkedFieldErrors, useParkedOf } from './parked-notice.tsx'
import { RecordLoading, RecordMissing } from './record-state.tsx'
import { RECORD_ROUTES, type RecordRoutes } from './record-routes.ts'
import { draftKey, useFollowId, useKeepWhileLoading } from './use-follow-id.ts'

type PageProps<Keys extends keyof RecordFormProps<never, never>> = Required<
  Pick<RecordFormProps<never, never>, Keys>
>

/** What the add page gives its form; the form's own page adds the title, values and the create. */
export type AddFormProps = PageProps<'submitLabel' | 'onSaved' | 'onCancel'>

/**
 * A kind's add page: waits for the current workspace (or says there is none), then renders the
 * kind's form; saving tells `added` and goes back to the list, as does cancelling.
 */
export function RecordAddPage({
  kind,
  added,
  children,
}: {
  kind: RecordKind
  /** The notification after saving, e.g. «Отделение добавлено». */
  added: string
  children: (workspaceId: number, form: AddFormProps) => ReactNode
}) {
  const navigate = useNavigate()
  const workspaceId = useCurrentWorkspaceId()
  if (workspaceId === undefined) return <RecordLoading />
  if (workspaceId === null) return <NoWorkspace />
  const toList = () => void navigate({ to: RECORD_ROUTES[kind].list })
  return children(workspaceId, {
    submitLabel: <Trans>Добавить</Trans>,
    onSaved: () => {
      notifySuccess(added)
      toList()
    },
    onCancel: toList,
  })
}

/** What the edit page gives its form; the form's own page adds the values and the update. */
export type EditFormProps = PageProps<
  'title' | 'serverErrors' | 'draftKey' | 'notice' | 'onSaved' | 'onCancel' | 'extraActions'
>

/**
 * A record's edit page: reads the record from the mirror (and refreshes it), follows it to its
 * server id when it was made offline, says so when it is gone, and renders the kind's form with the
 * server's refusals, the draft key, «Удалить» and the way back to the list.
 */
export function RecordEditPage<K extends RecordKind>({
  kind,
  id,
  backLabel,
  remove,
  children,
}: {
  kind: K
  id: number
  /** The button back to the list when the record is gone, e.g. «К отделениям». */
  backLabel: ReactNode
  /** Confirms and deletes; true when deleted (then the page goes back to the list). */
  remove: (record: RecordOf<K>) => Promise<boolean>
  children: (record: RecordOf<K>, form: EditFormProps) => ReactNode
}) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const routes: RecordRoutes = RECORD_ROUTES[kind]
  const record = useKeepWhileLoading(useRecord(kind, id), id)
  const parked = useParkedOf(kind, id)
  // A record opened by its address on a device that has not read its kind yet (amoCRM's redirect
  // back after «Подключить amoCRM», a shared link) is read with the current workspace's records.
  const currentWorkspace = useCurrentWorkspaceId()
  const scopeWorkspace = record ? record.workspace_id : (currentWorkspace ?? null)
  useRefresh(scopeWorkspace ? { kind, workspaceId: scopeWorkspace } : null)
  const follow = useCallback(
    (next: number) =>
      void navigate({ to: routes.item, params: { id: String(next) }, replace: true }),
    [navigate, routes],
  )
  useFollowId(kind, id, follow)
  const back = () => void navigate({ to: routes.list })

  if (record === undefined) return <RecordLoading />
  if (record === null) return <RecordMissing onBack={back} backLabel={backLabel} />
  return children(record, {
    title: record.name,
    serverErrors: parkedFieldErrors(parked),
    draftKey: draftKey(kind, record.id),
    notice: <ParkedNotice entries={parked} />,
    onSaved: () => {
      notifySuccess(t`Изменения сохранены`)
      back()
    },
    onCancel: back,
    extraActions: (
      <DeleteButton onClick={() => void remove(record).then((done) => done && back())} />
    ),
  })
}
