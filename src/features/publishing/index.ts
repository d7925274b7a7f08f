// Publishing a project (docs/publishing.md): the editor's control, the projects list's status and
// dialog.
export { PublishControl } from './publish-control.tsx'
export { PublishDialogHost } from './publish-dialog-host.tsx'
export { PublishStatus } from './publish-status.tsx'
