import {
  faceKey,
  FONT_SUBSETS,
  webFont,
  type FontFaceRef,
  type FontWeight,
} from '../model/fonts.ts'
import type { FontFile } from './font-files.ts'

/** A font face added to the document (a browser FontFace, or a fake in tests). */
export interface FaceHandle {
  load(): Promise<unknown>
}

/** Where faces live: the document's FontFaceSet in the browser. */
export interface FontEnvironment {
  /** Creates a face for one file and adds it to the document, not yet loaded. */
  addFace(family: string, file: FontFile, unicodeRange: string): FaceHandle
  removeFace(face: FaceHandle): void
}

/**
 * The document's FontFaceSet, or null where there is none (jsdom): then web fonts never count as
 * loaded and everything is drawn with the system fallbacks.
 */
export function browserFontEnvironment(): FontEnvironment | null {
  if (typeof FontFace === 'undefined' || typeof document === 'undefined' || !document.fonts) {
    return null
  }
  return {
    addFace(family, file, unicodeRange) {
      const face = new FontFace(family, `url(${JSON.stringify(file.url)}) format("woff2")`, {
        weight: String(file.weight),
        style: 'normal',
        display: 'swap',
        unicodeRange,
      })
      document.fonts.add(face)
      return face
    },
    removeFace(face) {
      document.fonts.delete(face as FontFace)
    },
  }
}

type Status = 'idle' | 'loading' | 'loaded' | 'failed'

interface Entry {
  face: FontFaceRef
  status: Status
  handles: FaceHandle[]
  promise: Promise<boolean> | null
}

/**
 * Registers the web fonts' faces with the document and loads them on request, one weight of one
 * family (its Cyrillic and Latin files) at a time, each at most once.
 *
 * Registered faces let the DOM (the preview) load a font by itself when it shows text in it. The
 * canvas cannot: Pixi rasterises text once, with whatever font is ready at that moment, so it asks
 * `isReady` and re-draws a text only when `subscribe` reports its face loaded.
 *
 * A face that failed (offline and not cached yet) stays failed until `retryFailed` (back online),
 * so every new text on the canvas does not fetch it again.
 */
export class FontLoader {
  private readonly entries = new Map<string, Entry>()
  private readonly listeners = new Set<() => void>()

  constructor(
    private readonly env: FontEnvironment | null,
    private readonly files: Readonly<Record<string, readonly FontFile[]>>,
  ) {}

  /** Adds every face to the document (nothing is downloaded yet). Safe to call again. */
  register(): void {
    for (const [family, files] of Object.entries(this.files)) {
      for (const weight of new Set(files.map((f) => f.weight))) this.entry({ family, weight })
    }
  }

  /**
   * Whether text in `font` at `weight` can be drawn as it should: a loaded web font, or a system
   * font (which needs nothing loaded).
   */
  isReady(font: string, weight: FontWeight): boolean {
    const web = webFont(font)
    if (!web) return true
    return this.entries.get(faceKey({ family: web.family, weight }))?.status === 'loaded'
  }

  /** Loads a face; true once it is usable, false when it failed or cannot load here. */
  load(face: FontFaceRef): Promise<boolean> {
    const entry = this.entry(face)
    if (!entry) return Promise.resolve(false)
    switch (entry.status) {
      case 'loaded':
        return Promise.resolve(true)
      case 'failed':
        return Promise.resolve(false)
      case 'loading':
        return entry.promise!
      case 'idle': {
        entry.status = 'loading'
        entry.promise = Promise.all(entry.handles.map((h) => h.load())).then(
          () => this.settle(entry, 'loaded'),
          () => this.settle(entry, 'failed'),
        )
        return entry.promise
      }
    }
  }

  /** Gives failed faces another chance (fresh faces: a FontFace that failed cannot load again). */
  retryFailed(): void {
    let changed = false
    for (const entry of this.entries.values()) {
      if (entry.status !== 'failed' || !this.env) continue
      for (const handle of entry.handles) this.env.removeFace(handle)
      entry.handles = this.createHandles(entry.face)
      entry.status = 'idle'
      entry.promise = null
      changed = true
    }
    if (changed) this.emit()
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  private settle(entry: Entry, status: 'loaded' | 'failed'): boolean {
    entry.status = status
    this.emit()
    return status === 'loaded'
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener()
  }

  private entry(face: FontFaceRef): Entry | null {
    const key = faceKey(face)
    const existing = this.entries.get(key)
    if (existing) return existing
    if (!this.env || !this.filesOf(face).length) return null
    const entry: Entry = { face, status: 'idle', handles: this.createHandles(face), promise: null }
    this.entries.set(key, entry)
    return entry
  }

  private filesOf(face: FontFaceRef): readonly FontFile[] {
    return (this.files[face.family] ?? []).filter((f) => f.weight === face.weight)
  }

  private createHandles(face: FontFaceRef): FaceHandle[] {
    return this.filesOf(face).map((file) =>
      this.env!.addFace(face.family, file, FONT_SUBSETS[file.subset]),
    )
  }
}
