// Mantine's SegmentedControl, for the editor's inspector and the story fit (docs/app-shell.md
// "UI kit"). Only from a module that loads on demand, like src/ui/modal.ts.
export { SegmentedControl } from '@mantine/core'
