import { useMemo, useSyncExternalStore } from 'react'
import type { User } from '../../domain/user.ts'
import { readSession, SESSION_KEYS, subscribe } from './session.ts'

function rawUser(): string | null {
  try {
    return localStorage.getItem(SESSION_KEYS.user)
  } catch {
    return null
  }
}

/** The stored user (userInfo), re-rendering on sign-in, sign-out and profile changes. */
export function useSessionUser(): User | null {
  // The raw string is a stable snapshot; parsing happens once per change.
  const raw = useSyncExternalStore(subscribe, rawUser, () => null)
  return useMemo(() => (raw === null ? null : readSession().user), [raw])
}
