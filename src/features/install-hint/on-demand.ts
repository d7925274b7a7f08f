// The check loads after the first screen, the notice only on a device that needs it
// (docs/performance.md).
export const loadInstallCheck = () => import('./ios-install.ts')
export const loadInstallHint = () => import('./install-hint.tsx')
