import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Button } from '@mantine/core'
import { IconTrash } from '@tabler/icons-react'

/** The red «Удалить» action of a record's form (the confirmation is the caller's). */
export function DeleteButton({ onClick }: { onClick: () => void }) {
  return (
    <Button
      size="md"
      variant="subtle"
      color="red"
      leftSection={<IconTrash size={18} />}
      onClick={onClick}
    >
      <Trans>Удалить</Trans>
    </Button>
  )
}

/** The bin at the end of a list row, named after its record (the confirmation is the caller's). */
export function RowDeleteButton({ name, onClick }: { name: string; onClick: () => void }) {
  const { t } = useLingui()
  return (
    <ActionIcon
      size={44}
      variant="subtle"
      color="red"
      onClick={onClick}
      aria-label={t`Удалить ${name}`}
    >
      <IconTrash size={20} />
    </ActionIcon>
  )
}
