// How every screen tells the sync's state (docs/app-shell.md "Sync status"): its word, shared by
// the header's indicator and the editor's toolbar; the opener of the header's sync panel; a parked
// change's conflict, shown by the panel and by a record's screen.
export { ConflictActions, ConflictFields, type BlockFieldOf } from './conflict-view.tsx'
export { onOpenSyncPanel, openSyncPanel } from './open-panel.ts'
export { syncState, useSyncStateLabel, type SyncState } from './sync-state.ts'
