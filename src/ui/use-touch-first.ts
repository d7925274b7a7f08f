import { useSyncExternalStore } from 'react'

/**
 * Whether the person's main pointer is a finger (a tablet without a mouse): no hover, a coarse
 * pointer. Hints that name keys («удерживайте Shift») are for the other case. Follows the device
 * as it changes (a keyboard case with a trackpad attached).
 */
const QUERY = '(hover: none) and (pointer: coarse)'

function subscribe(onChange: () => void): () => void {
  if (typeof window === 'undefined' || !window.matchMedia) return () => undefined
  const media = window.matchMedia(QUERY)
  media.addEventListener('change', onChange)
  return () => media.removeEventListener('change', onChange)
}

const snapshot = () =>
  typeof window !== 'undefined' && !!window.matchMedia && window.matchMedia(QUERY).matches

export function useTouchFirst(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => false)
}
