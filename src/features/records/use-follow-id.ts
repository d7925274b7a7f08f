import { useEffect, useState } from 'react'
import { isLocalId } from '../../data/ids.ts'
import { useIdRedirect } from '../../mirror/live.ts'
import { handOverDraft } from '../../ui/draft-carry.ts'
import type { MirrorTable } from '../../data/types.ts'

/**
 * A record created offline (negative id) gets its server id when its add replays; a page showing
 * it moves to the new id (a history replace, which the form's leave warning lets through).
 */
export function useFollowId(table: MirrorTable, id: number, go: (next: number) => void): void {
  const next = useIdRedirect(table, id)
  useEffect(() => {
    if (next === null || next === id) return
    handOverDraft(draftKey(table, id), draftKey(table, next))
    go(next)
  }, [next, id, go, table])
}

/**
 * The last loaded record while the next one loads: when a page moves to a record's new id, the
 * form stays mounted (with the user's unsaved edits) instead of flashing a loading state. A local
 * record (negative id) that disappears is being re-keyed by the sync engine (its redirect may
 * arrive a moment later), so it is held too.
 */
export function useKeepWhileLoading<T>(
  value: T | null | undefined,
  id: number,
): T | null | undefined {
  const [last, setLast] = useState(value)
  if (value !== undefined && value !== null && value !== last) setLast(value)
  if (value === undefined) return last
  if (value === null && isLocalId(id) && last) return last
  return value
}

/** The key under which a record's open form registers its unsaved values. */
export function draftKey(table: MirrorTable, id: number): string {
  return `${table}:${id}`
}
