import type { Block } from '../../domain/block.ts'
import type { Specialist } from '../../domain/directory.ts'
import type { Size } from '../../domain/geometry.ts'
import type { Background, Project } from '../../domain/project.ts'

/**
 * A block as the mirror holds it: `id` absent before the first save, negative until it syncs; `ck`
 * its client key, which never changes (docs/SYNC.md "Ids").
 */
export type LocalBlock = Block & { ck?: string }

/**
 * Everything the editor reads and writes, and nothing more: the one seam between the editor and
 * storage. The route fills it from the data layer (use-editor-data.ts); tests pass a double.
 */
export interface EditorData {
  project: Project
  /** The project's backgrounds, by position, each with its client key `ck` (its id when absent). */
  backgrounds: (Background & { ck?: string })[]
  /** Blocks of all the project's backgrounds. */
  blocks: LocalBlock[]
  /** Specialists of the project's workspace, for subscribe blocks. */
  specialists: Specialist[]
  /** Upserts blocks by their client key `ck` (unknown → new); resolves with their ids in order. */
  saveBlocks(blocks: LocalBlock[]): Promise<number[]>
  /** Deletes blocks by their client keys. */
  deleteBlocks(keys: string[]): Promise<void>
  /** Adds a background image with its natural size; resolves with the new background's id. */
  addBackground(file: Blob, size: Size): Promise<number>
  /** Stores a file for upload; resolves with a URL usable at once. */
  uploadFile(file: Blob): Promise<string>
  /**
   * The address to load for an image or video url: local uploads resolve to object URLs, and to ''
   * while the file on the device is still being read (show a placeholder, load nothing).
   */
  resolveFileUrl(url: string): string
  /**
   * A hook: 0…1 while the file behind a url returned by `uploadFile` is being sent, null while it
   * waits (offline, queued) or once it is on the server.
   */
  useUploadProgress(url: string): number | null
}
