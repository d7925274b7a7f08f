// The warning loads, with Mantine's notifications, only when space is short (docs/performance.md).
export const loadStorageWarning = () => import('./storage-warning.tsx')
