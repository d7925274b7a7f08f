// Mantine's Menu, for the account menu and the editor's block menu (docs/app-shell.md "UI kit").
// Only from a module that loads on demand, like src/ui/modal.ts.
export { Menu } from '@mantine/core'
