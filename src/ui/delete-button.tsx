import { Trans } from '@lingui/react/macro'
import { IconTrash } from '@tabler/icons-react'
import { Button } from './button.tsx'

/** The red «Удалить» action of a record's form (the confirmation is the caller's). */
export function DeleteButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="subtle" color="red" leftSection={<IconTrash size={18} />} onClick={onClick}>
      <Trans>Удалить</Trans>
    </Button>
  )
}
