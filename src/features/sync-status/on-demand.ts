// The header's indicator loads once the first screen is drawn; its panel when first opened
// (docs/performance.md).
export const loadSyncStatus = () => import('./sync-status.tsx')
