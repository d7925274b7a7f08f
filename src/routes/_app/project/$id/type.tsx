import { createFileRoute } from '@tanstack/react-router'
import { ProjectTypePage } from '../../../../features/projects/project-type-page.tsx'
import { parseRecordId } from '../../../../features/records/record-id.ts'
import { RecordNotFound } from '../../../../features/records/record-state.tsx'

export const Route = createFileRoute('/_app/project/$id/type')({ component: Page })

function Page() {
  const { id } = Route.useParams()
  const projectId = parseRecordId(id)
  return projectId === null ? <RecordNotFound to="/projects" /> : <ProjectTypePage id={projectId} />
}
