// The header's workspace switcher loads once the first screen is drawn (docs/performance.md).
export const loadWorkspaceSwitcher = () => import('./workspace-switcher.tsx')
