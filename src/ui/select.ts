// Mantine's Select with search, for the specialist's department and location pickers
// (docs/app-shell.md "UI kit"). Only from a module that loads on demand, like src/ui/modal.ts.
export { Select } from '@mantine/core'
