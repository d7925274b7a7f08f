import { Trans } from '@lingui/react/macro'
import { IconMail } from '@tabler/icons-react'
import { forwardRef, type ComponentPropsWithoutRef } from 'react'
import { Button } from '../../ui/button.tsx'

interface InvitationsButtonProps extends Omit<ComponentPropsWithoutRef<'button'>, 'color'> {
  count: number
  opened: boolean
}

/**
 * «Приглашения: N»: the app's own light button, drawn with the header (invitations.tsx) and again
 * as the target of the list's Popover once loaded (invitations-popover.tsx).
 */
export const InvitationsButton = forwardRef<HTMLButtonElement, InvitationsButtonProps>(
  function InvitationsButton({ count, opened, ...rest }, ref) {
    return (
      <Button
        ref={ref}
        variant="light"
        leftSection={<IconMail size={18} aria-hidden />}
        aria-haspopup="dialog"
        aria-expanded={opened}
        data-testid="invitations-button"
        {...rest}
      >
        <Trans>Приглашения: {count}</Trans>
      </Button>
    )
  },
)
