// The header's workspace switcher (docs/app-shell.md).
export { loadWorkspaceSwitcher } from './on-demand.ts'
