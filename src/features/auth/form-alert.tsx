import { Alert } from '@mantine/core'
import { IconAlertCircle } from '@tabler/icons-react'

/**
 * Why the last submit failed, next to the form's button (not only in a notification in the far
 * corner): a wrong password, no connection, too many attempts. Nothing when there is no message.
 */
export function FormAlert({ message }: { message: string | undefined }) {
  if (!message) return null
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle size={20} aria-hidden />}
      role="alert"
    >
      {message}
    </Alert>
  )
}
