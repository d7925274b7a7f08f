import {
  useCallback,
  useEffect,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type RefObject,
} from 'react'

/**
 * A header control drawn as the app's own light button whose overlay (Mantine's Popover, Menu…)
 * loads only when it is first opened (docs/performance.md, docs/app-shell.md
 * "Bundle: Mantine-free first load"). Until then the light button takes `lightProps`: hovering or
 * focusing it prefetches the overlay's code (`load`), pressing it asks for the overlay (`wanted`)
 * and opens it. Once wanted, the overlay stays mounted with its own copy of the button
 * (`opened`/`setOpened` drive it); that copy takes the focus when the light one had it
 * (`useTakeFocus`).
 */
export function useOverlayOnDemand(load: () => Promise<unknown>) {
  const [opened, setOpened] = useState(false)
  const [wanted, setWanted] = useState<{ takeFocus: boolean } | null>(null)
  const lightProps = {
    onPointerEnter: () => void load(),
    onFocus: () => void load(),
    onClick: (event: MouseEvent<HTMLElement>) => {
      setWanted({ takeFocus: document.activeElement === event.currentTarget })
      setOpened(true)
    },
  }
  /** Opens it from elsewhere (another control leads here): its button takes the focus. */
  const open = useCallback(() => {
    setWanted((before) => before ?? { takeFocus: true })
    setOpened(true)
  }, [])
  return { opened, setOpened, wanted, lightProps, open }
}

/** The loaded overlay's button takes the focus of the light one it replaced (on mount only). */
export function useTakeFocus(target: RefObject<HTMLElement | null>, takeFocus: boolean): void {
  useEffect(() => {
    if (takeFocus) target.current?.focus()
    // Only when it replaces the light button, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
}

/**
 * The overlay's button closes it on Escape too. Mantine's Popover hears Escape only from inside its
 * dropdown, and the focus is on the button after a press, or after another control opened it.
 */
export function closeOnEscape(opened: boolean, onChange: (opened: boolean) => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || !opened) return
    event.preventDefault()
    onChange(false)
  }
}
