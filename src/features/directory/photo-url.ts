import { localFileId } from '../../data/ids.ts'

/** A photo still waiting in IndexedDB for the network (`local-file:<n>`). */
export function isLocalFileUrl(url: string): boolean {
  return localFileId(url) !== null
}
