// Mantine's Popover, for the header's sync panel and invitations (docs/app-shell.md "UI kit").
// Only from a module that loads on demand, like src/ui/modal.ts.
export { Popover } from '@mantine/core'
