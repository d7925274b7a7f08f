import type * as endpoints from '../../api/endpoints.ts'
import type { UploadProgress } from '../../api/upload.ts'
import type { MirrorDb } from '../../data/db.ts'

/** The API the replay calls (tests and benchmarks may pass another). */
export type SyncApi = typeof endpoints

/** What a mutator's `send` gets from the replay engine. */
export interface SendContext {
  db: MirrorDb
  api: SyncApi
  /** Reports upload progress of a waiting file, for the image shown meanwhile. */
  progressOf(fileId: number): UploadProgress
  /** Pulls a project with its backgrounds and blocks (after a copy, the copy's content). */
  refreshProject(projectId: number): Promise<void>
}

/** A 2xx answer that had to be refused (bad body) or a file that vanished: park, never retry. */
export class ParkError extends Error {
  constructor(readonly code: string) {
    super('')
  }
}
