// Mantine's ColorInput, for the editor's colour fields and the story fit's margins
// (docs/app-shell.md "UI kit"). Only from a module that loads on demand, like src/ui/modal.ts.
export { ColorInput } from '@mantine/core'
