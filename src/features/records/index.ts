// What the record screens share (directory, integrations, projects, appeals, the editor, the
// workspaces): their add and edit pages and forms, loading and missing states, parked changes,
// commands with their errors, sorting, and the routes' record ids.
export type { RecordFormProps } from './form-props.ts'
export { NoWorkspace } from './no-workspace.tsx'
export { ParkedNotice, useParkedOf } from './parked-notice.tsx'
export { RecordFormFrame, useRecordFormOf } from './record-form.tsx'
export { parseRecordId } from './record-id.ts'
export {
  RecordAddPage,
  RecordEditPage,
  type AddFormProps,
  type EditFormProps,
} from './record-pages.tsx'
export { RECORD_ROUTES, type RecordRoutes } from './record-routes.ts'
export { RecordLoading, RecordMissing, RecordNotFound } from './record-state.tsx'
export { removeRecord } from './remove-record.ts'
export { runCommand } from './run-command.ts'
export { byCreation, byName } from './sorts.ts'
export { useFollowId, useKeepWhileLoading } from './use-follow-id.ts'
