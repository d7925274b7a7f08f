import type { ProjectTypeId } from '../../domain/project.ts'
import { EditorRoute } from './editor-route.tsx'
import { sendChangesNow, useEditorData, useProjectIdRedirect } from './use-editor-data.ts'

/**
 * The page of an editor route (DESIGN §2): the project named by the address's `id`, bound to the
 * data layer, in the editor of `type`. An id that is not a number shows «Проект не найден».
 */
export function EditorScreen({ id, type }: { id: string; type: ProjectTypeId }) {
  const projectId = /^-?\d{1,15}$/.test(id) ? Number(id) : 0
  const data = useEditorData(projectId)
  const movedTo = useProjectIdRedirect(projectId)
  return (
    <EditorRoute
      data={projectId === 0 ? null : data}
      type={type}
      onSave={sendChangesNow}
      movedTo={movedTo}
    />
  )
}
