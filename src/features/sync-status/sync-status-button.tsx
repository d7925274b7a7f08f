import {
  IconAlertTriangle,
  IconCloudCheck,
  IconCloudOff,
  IconCloudUpload,
} from '@tabler/icons-react'
import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react'
import { Badge } from '../../ui/badge.tsx'
import { PlainButton } from '../../ui/button.tsx'
import { Group, Text, type TextColor } from '../../ui/layout.tsx'
import { Loader } from '../../ui/loader.tsx'
import type { SyncState as State } from '../sync-state/index.ts'
import classes from './sync-status.module.css'

export interface SyncStatusButtonProps extends ComponentPropsWithoutRef<'button'> {
  state: State
  label: string
  /** Changes the server refused or that meet a colleague's: a count beside the words. */
  parked: number
  /** Colleagues kept their values over the person's: a count of its own, in orange. */
  notices?: number
}

/**
 * The header's sync indicator as a button (docs/app-shell.md, "Sync status"): the app's own light
 * control, drawn with the header; the panel it opens, with Mantine's Popover, loads on its first
 * opening (docs/performance.md). It forwards its ref, so the popover anchors to it.
 */
export const SyncStatusButton = forwardRef<HTMLButtonElement, SyncStatusButtonProps>(
  function SyncStatusButton({ state, label, parked, notices = 0, ...rest }, ref) {
    const { icon, color } = LOOK[state]
    return (
      <PlainButton
        ref={ref}
        className={classes.trigger}
        aria-haspopup="dialog"
        data-testid="sync-status"
        data-state={state}
        {...rest}
      >
        <Group gap={6} wrap="nowrap">
          <Text component="span" c={color} lh={0}>
            {icon}
          </Text>
          <Text component="span" size="sm" c={color} visibleFrom="sm" truncate>
            {label}
          </Text>
          {/* One count: the words already give it while the state is about them. */}
          {parked > 0 && state !== 'parked' ? (
            <Badge color="red" aria-hidden>
              {String(parked)}
            </Badge>
          ) : null}
          {notices > 0 ? (
            <Badge color="orange" aria-hidden data-testid="notices-count">
              {String(notices)}
            </Badge>
          ) : null}
        </Group>
      </PlainButton>
    )
  },
)

// Shades dark enough for small text on the white bar (contrast ≥ 4.5:1).
const LOOK: Record<State, { icon: ReactNode; color: TextColor }> = {
  offline: { icon: <IconCloudOff size={20} aria-hidden />, color: 'gray.7' },
  unreachable: { icon: <IconCloudOff size={20} aria-hidden />, color: 'orange.9' },
  saving: { icon: <Loader size={16} />, color: 'blue.8' },
  pending: { icon: <IconCloudUpload size={20} aria-hidden />, color: 'blue.8' },
  parked: { icon: <IconAlertTriangle size={20} aria-hidden />, color: 'red.9' },
  checking: { icon: <Loader size={16} />, color: 'gray.7' },
  saved: { icon: <IconCloudCheck size={20} aria-hidden />, color: 'teal.9' },
}
