import type { RecordKind } from '../data/types.ts'
import type { ChangeEvent } from '../domain/workspace.ts'

/** What the page, the sync worker and the service worker say to each other. */

export type RefreshScope =
  | { kind: 'workspaces' }
  | { kind: RecordKind | 'projects'; workspaceId: number }
  | { kind: 'project'; projectId: number }
  | { kind: 'projectTypes' }
  /** A workspace's visitors' requests, every window of the list (docs/requests.md). */
  | { kind: 'appeals'; workspaceId: number }
  /** One request, after its event (it arrived, its status or a delivery moved) or a retry. */
  | { kind: 'appeal'; workspaceId: number; id: number }

/** The sync worker's API (exposed with comlink). */
export interface SyncWorkerApi {
  /**
   * Replays the outbox now (no-op when another tab or the service worker is replaying). With
   * `resetBackoff` (the network just came back) waiting retries are due at once.
   */
  replay(options?: ReplayOptions): Promise<ReplayOutcome>
  refresh(scope: RefreshScope): Promise<void>
  /**
   * Whether the mirror already holds a change the server announced (docs/SYNC.md, "Live
   * changes"): the row at that version or newer, or gone after a delete. This device's own writes
   * come back as events too; they need no refresh. A burst of changes is asked in one call, read
   * in one transaction.
   */
  knows(changes: readonly KnownChange[]): Promise<boolean[]>
  retryEntry(seq: number): Promise<void>
  discardEntry(seq: number): Promise<void>
  /**
   * The person was removed from the workspace (the server said so, docs/API.md "Live changes"),
   * left it, or it was deleted: its mirror and the changes still queued for it go, and
   * `workspaceLoss` says so.
   */
  forgetWorkspace(workspaceId: number, reason: 'removed' | 'left' | 'gone'): Promise<void>
  /** The person has read the notice of `workspaceLoss`. */
  dismissWorkspaceLoss(): Promise<void>
  /** Replays until the outbox is idle or `timeoutMs` passes; true when nothing is left pending. */
  flush(timeoutMs: number): Promise<boolean>
}

export interface ReplayOptions {
  resetBackoff?: boolean
}

export type ReplayOutcome =
  /** Nothing left to send (parked entries may remain). */
  | 'idle'
  /** Network/5xx/429: a retry is scheduled. */
  | 'backoff'
  /** 401: waiting for the user to sign in again. */
  | 'signin'
  /** Another tab or the service worker holds the replay lock. */
  | 'busy'
  /** No token stored: signed out. */
  | 'signedout'

/** BroadcastChannel name and message: whether some replayer is sending right now. */
export const STATUS_CHANNEL = 'promo-builder-sync'
export type StatusMessage =
  | { type: 'replaying'; replaying: boolean }
  /** An upload of `local-file:<fileId>` in progress (loaded === total when done). */
  | { type: 'upload'; fileId: number; loaded: number; total: number }
  /** The worker's last request got an answer from the API, or none (src/sync/reachability.ts). */
  | { type: 'answer'; answered: boolean }

/** Background Sync tag registered by the page when changes wait offline. */
export const SYNC_TAG = 'promo-builder-outbox'
/** Web Lock held by whoever replays or refreshes (one at a time across tabs and the SW). */
export const REPLAY_LOCK = 'promo-builder-outbox'

export function scopeKey(scope: RefreshScope): string {
  return JSON.stringify(scope)
}

/** A change the server announced, as far as the mirror can tell whether it has it. */
export type KnownChange = Pick<ChangeEvent, 'table' | 'id' | 'version' | 'op'>
