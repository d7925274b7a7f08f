/**
 * Whether the API answers, as requests tell it (docs/app-shell.md, "Sync status"): the
 * page's own requests (through `configureApi({ onAnswer })`), the sync worker's (its status
 * messages), and a check_auth that outlasted the guard's patience. `navigator.onLine` says only that
 * some network is there; on a link that connects but never answers, or with the API down, it stays
 * true while nothing gets through. The first answer turns it back.
 */
let answering = true
const listeners = new Set<() => void>()

export function noteAnswer(answered: boolean): void {
  if (answered === answering) return
  answering = answered
  for (const listener of listeners) listener()
}

/** False after a request got no answer, until one does. */
export function isAnswering(): boolean {
  return answering
}

export function subscribeAnswering(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
