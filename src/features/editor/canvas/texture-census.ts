import { TexturePool, type Application } from 'pixi.js'
import { sharedTextureCount } from './textures.ts'

/**
 * What the editor keeps of Pixi's textures, for the reopen figures of `npm run bench canvas`
 * (docs/editor.md "Test hooks"): `window.__promoEditorTextures()`. Installed
 * only in the test build (`test-hooks.ts`); reads Pixi 8.22's own bookkeeping (private fields:
 * an upgrade that renames them reads 0).
 */
export interface TextureCensus {
  /** Editor stages started and not destroyed. */
  renderers: number
  /** Textures the live renderers hold on the GPU (their texture systems' managed textures). */
  gpuTextures: number
  /** Pictures, backgrounds and video stills shared by URL (`textures.ts`) and not released. */
  shared: number
  /**
   * Textures idle in Pixi's global pool, on no renderer (Pixi's own texts return theirs there; the
   * canvas's paragraphs keep their own, `pixel-text.ts`).
   */
  pooled: number
}

declare global {
  interface Window {
    __promoEditorTextures?: () => TextureCensus
  }
}

/** Editor stages, weakly: a destroyed one has no renderer any more. */
const stages = new Set<WeakRef<Application>>()

/** Textures a renderer holds on the GPU: Pixi's managed hash of its texture system. */
export function rendererTextures(app: Application): number {
  const system = app.renderer?.texture as
    { _managedTextures?: { items?: Record<string, unknown> } } | undefined
  const items = system?._managedTextures?.items
  return items ? Object.values(items).filter(Boolean).length : 0
}

/** Textures waiting in Pixi's global pool. */
export function pooledTextures(): number {
  const buckets = (TexturePool as unknown as { _buckets?: Map<unknown, unknown[]> })._buckets
  let count = 0
  for (const bucket of buckets?.values() ?? []) count += bucket.length
  return count
}

export function textureCensus(): TextureCensus {
  let renderers = 0
  let gpuTextures = 0
  for (const ref of stages) {
    const app = ref.deref()
    if (!app?.renderer) {
      stages.delete(ref)
      continue
    }
    renderers += 1
    gpuTextures += rendererTextures(app)
  }
  return { renderers, gpuTextures, shared: sharedTextureCount(), pooled: pooledTextures() }
}

/** Counts a started stage (test build only: the caller checks `VITE_TEST_HOOKS`). */
export function trackStage(app: Application) {
  stages.add(new WeakRef(app))
  window.__promoEditorTextures ??= textureCensus
}
