import { useEffect, useRef } from 'react'
import { hasCommandKey, isTyping } from './keyboard.ts'
import type { EditorStore } from './model/editor-store.ts'

export interface ShortcutTarget {
  store: EditorStore
  /** The background pastes and «select all» go to. */
  activeBgId: number | null
  zoomBy: (factor: number) => void
  /** Off while a dialog or menu has the keyboard. */
  enabled: boolean
}

/**
 * The editor's keyboard: Ctrl/Cmd+Z undo, Shift+Ctrl/Cmd+Z (or Ctrl+Y) redo, Delete, Ctrl/Cmd+C/X/V/D/A,
 * arrows nudge by one px (Shift: ten), Escape clears the selection, Ctrl/Cmd +/- zoom. Keys typed into
 * a field stay with the field.
 */
export function useShortcuts(target: ShortcutTarget) {
  const ref = useRef(target)
  useEffect(() => {
    ref.current = target
  })
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const { store, activeBgId, zoomBy, enabled } = ref.current
      if (!enabled || isTyping(e.target)) return
      const mod = hasCommandKey(e)
      const key = e.key.toLowerCase()
      const selection = store.getState().selection
      const handled = (() => {
        if (mod && key === 'z') {
          if (e.shiftKey) store.redo()
          else store.undo()
          return true
        }
        if (mod && key === 'y') {
          store.redo()
          return true
        }
        if (mod && key === 'c') {
          store.copy()
          return selection.length > 0
        }
        if (mod && key === 'x') {
          store.copy()
          store.remove()
          return selection.length > 0
        }
        if (mod && key === 'v') {
          if (activeBgId !== null) store.paste(activeBgId)
          return true
        }
        if (mod && key === 'd') {
          store.duplicate()
          return true
        }
        if (mod && key === 'a') {
          if (activeBgId !== null) store.selectAll(activeBgId)
          return true
        }
        if (mod && (key === '=' || key === '+')) {
          zoomBy(1.25)
          return true
        }
        if (mod && key === '-') {
          zoomBy(0.8)
          return true
        }
        if (mod) return false
        if (key === 'delete' || key === 'backspace') {
          store.remove()
          return selection.length > 0
        }
        if (key === 'escape') {
          store.clearSelection()
          return selection.length > 0
        }
        const step = e.shiftKey ? 10 : 1
        const arrows: Record<string, [number, number]> = {
          arrowleft: [-step, 0],
          arrowright: [step, 0],
          arrowup: [0, -step],
          arrowdown: [0, step],
        }
        const move = arrows[key]
        if (move && selection.length > 0) {
          store.nudge(move[0], move[1])
          return true
        }
        return false
      })()
      if (handled) e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
