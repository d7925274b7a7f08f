import { compareText } from '../../ui/list-query.ts'

/**
 * Order of creation: server ids grow with time, and a record made offline (negative id, -1, -2, …)
 * is newer than any server record until its add replays.
 */
export function creationRank(id: number): number {
  return id > 0 ? id : Number.MAX_SAFE_INTEGER / 2 - id
}

export const byName = <T extends { name: string }>(a: T, b: T) => compareText(a.name, b.name)
export const byCreation = <T extends { id: number }>(a: T, b: T) =>
  creationRank(a.id) - creationRank(b.id)
