// The iPad/iPhone install hint (docs/app-shell.md).
export { loadInstallCheck, loadInstallHint } from './on-demand.ts'
