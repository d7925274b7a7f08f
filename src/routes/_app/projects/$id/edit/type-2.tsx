import { createFileRoute } from '@tanstack/react-router'
import { EditorRoute } from '../../../../../features/editor/editor-route.tsx'
import {
  sendChangesNow,
  useEditorData,
  useProjectIdRedirect,
} from '../../../../../features/editor/use-editor-data.ts'

/** Canvas editor, type 2 (DESIGN §2). */
export const Route = createFileRoute('/_app/projects/$id/edit/type-2')({ component: Page })

function Page() {
  const { id } = Route.useParams()
  const projectId = /^-?\d{1,15}$/.test(id) ? Number(id) : 0
  const data = useEditorData(projectId)
  const movedTo = useProjectIdRedirect(projectId)
  return (
    <EditorRoute
      data={projectId === 0 ? null : data}
      type={2}
      onSave={sendChangesNow}
      movedTo={movedTo}
    />
  )
}
