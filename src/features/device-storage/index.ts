// «Мало места на устройстве» (docs/app-shell.md).
export { loadStorageWarning } from './on-demand.ts'
