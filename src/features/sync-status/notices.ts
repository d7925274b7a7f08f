import { useSyncExternalStore } from 'react'
import { ApiError } from '../../api/client.ts'
import { dismissNotice, listNotices } from '../../api/members.ts'
import type { ChangeNotice } from '../../domain/workspace.ts'
import { onAccountNews } from '../../sync/client.ts'
import { firstScreenDrawn } from '../../ui/first-screen.tsx'

/**
 * What colleagues kept over the person's own values («Оставить моё», docs/API.md "Conditional
 * writes"): asked for online once the app's first screen is drawn, when it comes back online, and
 * whenever the server says they changed (an event on every stream of the person's, or their
 * workspaces changed). The sync panel lists them; «Понятно» drops one on the server. Like
 * invitations, not kept offline: the write that replaced the values was made online, and the list
 * is asked for again on the way back.
 */
let notices: readonly ChangeNotice[] = []
/** Notices being dismissed: gone from the list at once, back if the server could not be told. */
const hidden = new Set<number>()
const listeners = new Set<() => void>()
let users = 0
let stop: (() => void) | null = null

function publish(list: readonly ChangeNotice[]): void {
  notices = list.filter((notice) => !hidden.has(notice.id))
  for (const listener of listeners) listener()
}

function reload(): void {
  listNotices().then(publish, () => undefined)
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  users += 1
  if (users === 1) {
    // After the first screen: the list shares no link with what the person waits for.
    void firstScreenDrawn().then(() => {
      if (users > 0) reload()
    })
    const stopNews = onAccountNews((news) => {
      if (news === 'notices' || news === 'workspaces') reload()
    })
    window.addEventListener('online', reload)
    stop = () => {
      stopNews()
      window.removeEventListener('online', reload)
    }
  }
  return () => {
    listeners.delete(listener)
    users -= 1
    if (users === 0) {
      stop?.()
      stop = null
    }
  }
}

/** The notices waiting for the person, newest first. */
export function useNotices(): readonly ChangeNotice[] {
  // The first subscriber starts the asking (the header's indicator, drawn on every screen).
  return useSyncExternalStore(subscribe, () => notices)
}

/** «Понятно»: the notice goes from the list at once; it comes back if the server was not told. */
export async function dismiss(id: number): Promise<void> {
  hidden.add(id)
  publish(notices)
  try {
    await dismissNotice(id)
  } catch (error) {
    // Gone already (dismissed on another device): as good as dismissed here.
    if (!(error instanceof ApiError && error.status === 404)) {
      hidden.delete(id)
      reload()
      throw error
    }
  }
  hidden.delete(id)
}
