// Mantine's open/close state, for the account menu's dialog. Only from a module that loads on
// demand, like src/ui/modal.ts.
export { useDisclosure } from '@mantine/hooks'
