// The editor (docs/editor.md): its screen for the routes, and the drafts the app restores at
// start. What the published page is drawn with is the editor's other public entry, page-kit.ts.
export { draftStorage, restoreDrafts } from './draft.ts'
export { EditorScreen } from './editor-screen.tsx'
