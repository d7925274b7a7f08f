import { createFileRoute } from '@tanstack/react-router'
import { ProjectTypePage } from '../../../../features/projects/index.ts'
import { parseRecordId, RecordNotFound } from '../../../../features/records/index.ts'

export const Route = createFileRoute('/_app/project/$id/type')({ component: Page })

function Page() {
  const { id } = Route.useParams()
  const projectId = parseRecordId(id)
  return projectId === null ? <RecordNotFound to="/projects" /> : <ProjectTypePage id={projectId} />
}
