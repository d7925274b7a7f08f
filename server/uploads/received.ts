import type { ImageInfo } from './image.ts'
import type { PartialUpload } from './storage.ts'
import type { VideoInfo } from './video.ts'

/**
 * An upload as the HTTP layer receives it (server/http/upload-body.ts) and the services keep it
 * (server/services/uploads.ts): the rules of one call, the room it holds in the quota, the file
 * received.
 */

/**
 * Room held in the user's quota for one upload while it arrives, shared by every instance over
 * the database (server/services/uploads.ts): parallel uploads cannot together pass the quota.
 */
export interface QuotaHold {
  /** Whether `bytes` are held, and recently enough that no renewal is due. */
  covers(bytes: number): boolean
  /**
   * Holds at least `needed` bytes (as much of `wanted` as the quota leaves), or renews what is
   * held; false when the quota leaves fewer than `needed`.
   */
  reserve(needed: number, wanted: number): Promise<boolean>
  /** Gives back what is held; nothing once the upload has been kept. */
  release(): Promise<void>
}

/** What one upload call takes, and the room it holds in the user's quota. */
export interface UploadRules {
  imageMaxBytes: number
  /** Videos are taken only when this is given (image/upload, not a background). */
  videoMaxBytes?: number
  /** Null: not held to the quota (no quota, or a repeat of a known Idempotency-Key). */
  quota: QuotaHold | null
  /** The 415's message: what this call takes. */
  unsupported: 'unsupported_media' | 'unsupported_upload'
}

/** An upload received whole and within its limits, its file not yet kept. */
export interface ReceivedUpload {
  /** The file as received: the handler commits it under a name, or it is discarded. */
  file: PartialUpload
  size: number
  image: ImageInfo | null
  video: VideoInfo | null
  /** The other fields (the last value of each name). */
  fields: Record<string, string>
  /** The room it holds in the quota (UploadRules), settled when the file is kept. */
  quota: QuotaHold | null
  /**
   * What the request asks, as the Idempotency-Key middleware compares it: SHA-256 of the
   * request line, then the fields by name with the file's bytes in place of `file`.
   */
  fingerprint: string
}
