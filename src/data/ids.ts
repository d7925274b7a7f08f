/**
 * Ids (docs/SYNC.md "Ids"). Records created offline get a negative integer id (-1, -2, … from a
 * counter in `meta`); the server id replaces it once the add replays. Uploads waiting in IndexedDB
 * are referred to by `local-file:<n>` urls.
 */
export function isLocalId(id: number): boolean {
  return Number.isInteger(id) && id < 0
}

export const LOCAL_FILE_PREFIX = 'local-file:'

export function localFileUrl(fileId: number): string {
  return `${LOCAL_FILE_PREFIX}${fileId}`
}

/** The file id of a `local-file:<n>` url, or null for any other url. */
export function localFileId(url: string): number | null {
  if (!url.startsWith(LOCAL_FILE_PREFIX)) return null
  const n = Number(url.slice(LOCAL_FILE_PREFIX.length))
  return Number.isInteger(n) && n > 0 ? n : null
}

/** Sort key: server ids ascending, then local ids in the order they were made (-1, -2, …). */
export function creationOrder(id: number): number {
  return id > 0 ? id : Number.MAX_SAFE_INTEGER / 2 - id
}
