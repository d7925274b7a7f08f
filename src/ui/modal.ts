// Mantine's Modal, for the dialogs (docs/app-shell.md "UI kit"). Import it only from a module
// that loads on demand inside a MantineScope: Mantine is no part of a first screen
// (docs/performance.md).
export { Modal } from '@mantine/core'
