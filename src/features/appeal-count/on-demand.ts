// The header draws the count of new requests once the first screen is drawn (docs/performance.md).
export const loadNewAppealsBadge = () => import('./new-appeals-badge.tsx')
