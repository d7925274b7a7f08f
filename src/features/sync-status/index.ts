// The header's sync indicator and its panel (docs/app-shell.md "Sync status"), and how the panel
// names a kind of record.
export { loadSyncStatus } from './on-demand.ts'
export { changeKindName } from './parked-list.tsx'
