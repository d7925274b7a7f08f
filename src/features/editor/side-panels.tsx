import { Box, Paper } from '../../ui/layout.tsx'
import {
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconLayoutSidebarRightCollapse,
  IconLayoutSidebarRightExpand,
} from '@tabler/icons-react'
import { useCallback, useId, useState, useSyncExternalStore, type ReactNode } from 'react'
import { IconButton } from '../../ui/button.tsx'

export type PanelSide = 'layers' | 'inspector'
type Orientation = 'portrait' | 'landscape'
type Remembered = Partial<Record<Orientation, Partial<Record<PanelSide, boolean>>>>

/** Which side panels the person left open, per orientation, on this device. */
export const EDITOR_PANELS_KEY = 'promo-builder:editor-panels'

const PORTRAIT = '(orientation: portrait)'

function subscribeOrientation(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined
  const query = window.matchMedia(PORTRAIT)
  query.addEventListener?.('change', onChange)
  return () => query.removeEventListener?.('change', onChange)
}

function currentOrientation(): Orientation {
  return typeof window.matchMedia === 'function' && window.matchMedia(PORTRAIT).matches
    ? 'portrait'
    : 'landscape'
}

function readRemembered(): Remembered {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(EDITOR_PANELS_KEY) ?? '{}')
    return value && typeof value === 'object' ? (value as Remembered) : {}
  } catch {
    return {}
  }
}

/**
 * The editor's side panels, open or collapsed. In portrait both start collapsed so the canvas
 * gets the width, in landscape both start open; what the person chooses is remembered on the
 * device (localStorage) for that orientation.
 */
export function useSidePanels(): {
  open: Record<PanelSide, boolean>
  toggle: (side: PanelSide) => void
} {
  const orientation = useSyncExternalStore(subscribeOrientation, currentOrientation)
  const [remembered, setRemembered] = useState(readRemembered)
  const byDefault = orientation === 'landscape'
  const chosen = remembered[orientation] ?? {}
  const open = {
    layers: chosen.layers ?? byDefault,
    inspector: chosen.inspector ?? byDefault,
  }
  const toggle = useCallback(
    (side: PanelSide) => {
      setRemembered((all) => {
        const mine = all[orientation] ?? {}
        const next = { ...all, [orientation]: { ...mine, [side]: !(mine[side] ?? byDefault) } }
        try {
          localStorage.setItem(EDITOR_PANELS_KEY, JSON.stringify(next))
        } catch {
          // Private mode or a full storage: the choice holds until the page closes.
        }
        return next
      })
    },
    [orientation, byDefault],
  )
  return { open, toggle }
}

/** Width of a collapsed panel: its 44 px toggle and a little room. */
const COLLAPSED_WIDTH = 56

/**
 * A side panel of the editor with a 44 px toggle on top; collapsed, only the toggle shows and the
 * content stays mounted but hidden (an inspector's draft is not lost).
 */
export function SidePanel({
  side,
  open,
  onToggle,
  label,
  width,
  children,
}: {
  side: PanelSide
  open: boolean
  onToggle: () => void
  /** The toggle's accessible name (its state is in aria-expanded). */
  label: string
  width: number
  children: ReactNode
}) {
  const bodyId = useId()
  const left = side === 'layers'
  const Icon = left
    ? open
      ? IconLayoutSidebarLeftCollapse
      : IconLayoutSidebarLeftExpand
    : open
      ? IconLayoutSidebarRightCollapse
      : IconLayoutSidebarRightExpand
  return (
    <Paper
      withBorder
      data-testid={`editor-panel-${side}`}
      style={{
        width: open ? width : COLLAPSED_WIDTH,
        flexShrink: 0,
        overflow: 'hidden',
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <Box
        p={6}
        style={{ display: 'flex', justifyContent: open && left ? 'flex-end' : 'flex-start' }}
      >
        <IconButton
          variant="subtle"
          aria-label={label}
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={onToggle}
        >
          <Icon size={20} aria-hidden />
        </IconButton>
      </Box>
      <Box
        id={bodyId}
        hidden={!open}
        style={{ flex: 1, minHeight: 0, display: open ? 'flex' : 'none', flexDirection: 'column' }}
      >
        {children}
      </Box>
    </Paper>
  )
}
