import type { ProjectTypeId } from '../../domain/project.ts'
import { useState } from 'react'
import type { EditorData } from './editor-data.ts'
import { EditorRoute } from './editor-route.tsx'
import { sendChangesNow, useEditorData, useProjectIdRedirect } from './use-editor-data.ts'

/**
 * The page of an editor route (docs/editor.md "Two editors"): the project named by the address's
 * `id`, bound to the data layer, in the editor of `type`. An id that is not a number shows «Проект
 * не найден».
 */
export function EditorScreen({ id, type }: { id: string; type: ProjectTypeId }) {
  const projectId = /^-?\d{1,15}$/.test(id) ? Number(id) : 0
  const movedTo = useProjectIdRedirect(projectId)
  // A project made here gets its server id while it is open: the editor reads it under that id at
  // once and keeps showing what it had while the reads start over, so it stays mounted (its undo
  // history and selection with it) while the address follows.
  const data = useHeldWhileLoading(useEditorData(movedTo ?? projectId))
  return (
    <EditorRoute
      data={projectId === 0 ? null : data}
      type={type}
      onSave={sendChangesNow}
      movedTo={movedTo}
    />
  )
}

/** The last loaded value while a new read is loading (undefined), so the screen never blinks. */
function useHeldWhileLoading(data: EditorData | null | undefined): EditorData | null | undefined {
  const [held, setHeld] = useState(data)
  if (data !== undefined && data !== held) setHeld(data)
  return data === undefined ? held : data
}
