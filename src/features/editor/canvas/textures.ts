import { Texture } from 'pixi.js'
import { useEffect, useState } from 'react'
import { stillTime } from '../blocks/shared.ts'

/**
 * Textures for images, backgrounds and video posters, shared by URL and counted: the last user
 * destroys the texture, so opening and closing the editor does not grow GPU or heap memory.
 */
interface Entry {
  users: number
  promise: Promise<Texture>
  texture: Texture | null
}

const cache = new Map<string, Entry>()

/** Textures shared now (the test build's census, `texture-census.ts`). */
export function sharedTextureCount(): number {
  return cache.size
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image()
    if (/^https?:/.test(url)) img.crossOrigin = 'anonymous'
    img.onload = () => resolve(img)
    img.onerror = () => reject(new Error('image'))
    img.src = url
  })
}

/** How long a video's still waits for its frame to be presented after the seek at most. */
const PRESENTED_WAIT_MS = 500

/** The first frame of a video, drawn on a canvas (the editor shows a still, not the playing video). */
function loadVideoPoster(url: string): Promise<HTMLCanvasElement> {
  return new Promise((resolve, reject) => {
    const video = document.createElement('video')
    video.muted = true
    video.preload = 'auto'
    video.playsInline = true
    if (/^https?:/.test(url)) video.crossOrigin = 'anonymous'
    const fail = () => {
      video.removeAttribute('src')
      reject(new Error('video'))
    }
    video.onerror = fail
    video.onloadeddata = () => {
      video.currentTime = stillTime(video.duration)
    }
    let drawn = false
    const draw = () => {
      if (drawn) return
      drawn = true
      const canvas = document.createElement('canvas')
      canvas.width = video.videoWidth || 320
      canvas.height = video.videoHeight || 180
      try {
        canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height)
        resolve(canvas)
      } catch {
        fail()
      }
      video.removeAttribute('src')
      video.load()
    }
    video.onseeked = () => {
      // «seeked» may come before the frame sought is presented: drawn then, on a busy machine the
      // still was the clip's first frame (the pixel check's video differed in 96% of its pixels).
      // The next presented frame is the one sought; if it came already, the time-out draws it.
      if (!('requestVideoFrameCallback' in video)) return draw()
      video.requestVideoFrameCallback(() => draw())
      setTimeout(draw, PRESENTED_WAIT_MS)
    }
    video.src = url
  })
}

function acquire(key: string, load: () => Promise<HTMLImageElement | HTMLCanvasElement>): Entry {
  let entry = cache.get(key)
  if (!entry) {
    const created: Entry = { users: 0, texture: null, promise: Promise.resolve(Texture.EMPTY) }
    created.promise = load().then((source) => {
      created.texture = Texture.from(source, true)
      return created.texture
    })
    entry = created
    cache.set(key, entry)
  }
  entry.users += 1
  return entry
}

function release(key: string) {
  const entry = cache.get(key)
  if (!entry) return
  entry.users -= 1
  if (entry.users > 0) return
  cache.delete(key)
  entry.promise.then((texture) => texture.destroy(true)).catch(() => undefined)
}

export type TextureState =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'ready'; texture: Texture }

/**
 * The texture of an image (or, with `video`, of a video's first frame); 'none' for an empty URL.
 * What it answers belongs to the cache entry it was loaded into: a URL released and asked for
 * again (a background's address going to its uploaded file and back) is a new entry, and the old
 * one's texture, destroyed with it, is never shown again ("loading" until the new one is ready).
 */
export function useTexture(url: string, kind: 'image' | 'video' = 'image'): TextureState {
  const [state, setState] = useState<{ entry: Entry | null; state: TextureState }>({
    entry: null,
    state: { status: 'none' },
  })
  const key = `${kind}:${url}`
  useEffect(() => {
    if (!url) return
    const entry = acquire(key, () => (kind === 'video' ? loadVideoPoster(url) : loadImage(url)))
    let live = true
    entry.promise.then(
      (texture) => live && setState({ entry, state: { status: 'ready', texture } }),
      () => live && setState({ entry, state: { status: 'error' } }),
    )
    return () => {
      live = false
      release(key)
    }
  }, [key, url, kind])
  if (!url) return { status: 'none' }
  return state.entry !== null && state.entry === cache.get(key)
    ? state.state
    : { status: 'loading' }
}
