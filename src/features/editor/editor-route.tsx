import './editor-messages.ts'
import { Trans } from '@lingui/react/macro'
import { Stack, Text, Title } from '../../ui/layout.tsx'
import { Navigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import type { ProjectTypeId } from '../../domain/project.ts'
import { AnchorLink } from '../../ui/links.tsx'
import { Loader } from '../../ui/loader.tsx'
import type { EditorData } from './editor-data.ts'
import { EditorPage } from './editor-page.tsx'

export interface EditorRouteProps {
  /** From `useEditorData`: undefined while loading, null when the project is unknown. */
  data: EditorData | null | undefined
  type: ProjectTypeId
  saveStatus?: ReactNode
  onSave?: () => void
  /** The server id that replaced this project's local id, once it synced. */
  movedTo?: number | null
}

/** The editor route's body: loading, not found, the other editor type, or the editor. */
export function EditorRoute({ data, type, saveStatus, onSave, movedTo }: EditorRouteProps) {
  const moved = movedTo !== undefined && movedTo !== null
  if (moved && !data) return <ToEditor id={movedTo} type={type} />
  if (data === undefined) {
    return (
      <Stack align="center" justify="center" mih={320}>
        <Loader />
      </Stack>
    )
  }
  if (data === null) {
    return (
      <Stack align="center" justify="center" mih={320} ta="center" gap="sm">
        <Title order={1} fz="xl">
          <Trans>Проект не найден</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>Возможно, его удалили или он относится к другому рабочему пространству.</Trans>
        </Text>
        <AnchorLink to="/projects">
          <Trans>К списку проектов</Trans>
        </AnchorLink>
      </Stack>
    )
  }
  const projectType = data.project.type
  if (projectType !== null && projectType !== type)
    return <ToEditor id={data.project.id} type={projectType} />
  // The same tree whether or not the address is being replaced: the editor stays mounted.
  return (
    <>
      {moved ? <ToEditor id={movedTo} type={type} /> : null}
      <EditorPage data={data} type={type} saveStatus={saveStatus} onSave={onSave} />
    </>
  )
}

/** Replaces the address with the editor of project `id` of `type`. */
function ToEditor({ id, type }: { id: number; type: ProjectTypeId }) {
  const params = { id: String(id) }
  return type === 1 ? (
    <Navigate to="/projects/$id/edit/type-1" params={params} replace />
  ) : (
    <Navigate to="/projects/$id/edit/type-2" params={params} replace />
  )
}
