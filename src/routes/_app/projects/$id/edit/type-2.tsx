import { createFileRoute } from '@tanstack/react-router'
import { EditorScreen } from '../../../../../features/editor/index.ts'

/** Canvas editor, type 2 «Сторис» (docs/editor.md "Two editors"). */
export const Route = createFileRoute('/_app/projects/$id/edit/type-2')({ component: Page })

function Page() {
  return <EditorScreen id={Route.useParams().id} type={2} />
}
