import { useEffect } from 'react'
import { useIdRedirect } from '../../data/live.ts'
import type { MirrorTable } from '../../data/types.ts'

/**
 * A record created offline (negative id) gets its server id when its add replays; a page showing
 * it moves to the new id (a history replace, which the form's leave warning lets through).
 */
export function useFollowId(table: MirrorTable, id: number, go: (next: number) => void): void {
  const next = useIdRedirect(table, id)
  useEffect(() => {
    if (next !== null && next !== id) go(next)
  }, [next, id, go])
}
