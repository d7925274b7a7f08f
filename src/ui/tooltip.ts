// Mantine's Tooltip, for the editor's toolbar (docs/app-shell.md "UI kit"). Only from a module that
// loads on demand, like src/ui/modal.ts.
export { Tooltip } from '@mantine/core'
