// Mantine's Slider, for the story fit's frame position (docs/app-shell.md "UI kit"). Only from a
// module that loads on demand, like src/ui/modal.ts.
export { Slider } from '@mantine/core'
