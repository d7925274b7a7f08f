import { IconAlertCircle } from '@tabler/icons-react'
import { Alert } from '../../ui/alert.tsx'

/**
 * Why the last submit failed, next to the form's button (not only in a notification in the far
 * corner): a wrong password, no connection, too many attempts. Nothing when there is no message.
 */
export function FormAlert({ message }: { message: string | undefined }) {
  if (!message) return null
  return (
    <Alert color="red" icon={IconAlertCircle} role="alert">
      {message}
    </Alert>
  )
}
