import { useLingui } from '@lingui/react/macro'
import { IconTrash } from '@tabler/icons-react'
import { IconButton } from './button.tsx'

/**
 * The bin at the end of a list row, named after its record (the confirmation is the caller's).
 * Mantine-free: the list pages draw without Mantine.
 */
export function RowDeleteButton({ name, onClick }: { name: string; onClick: () => void }) {
  const { t } = useLingui()
  return (
    <IconButton variant="subtle" color="red" onClick={onClick} aria-label={t`Удалить ${name}`}>
      <IconTrash size={20} />
    </IconButton>
  )
}
