import type { BrowserContext, Page } from 'playwright-core'

/**
 * What the page holds on the GPU, counted from outside the app: an init script (run before any of
 * the page's own scripts) wraps `getContext` and each WebGL context's `createTexture` and
 * `deleteTexture`. A context counts as live until it is lost (`isContextLost()`, which a renderer's
 * `WEBGL_lose_context` makes true at once) or collected; its textures count while it lives and
 * until deleted, as the GPU frees them then. Contexts are held weakly, so counting keeps nothing
 * alive. Used by the reopen figures of `npm run bench canvas` (tests/bench/reopen-measure.ts).
 */
export interface GlCensus {
  /** WebGL contexts created and neither lost nor collected. */
  contexts: number
  /** Textures created in those contexts and not deleted. */
  textures: number
  /** WebGL contexts ever created on the page. */
  created: number
}

declare global {
  interface Window {
    __glCensus?: () => GlCensus
  }
}

/** Installs the census on every page of the context (before the page's scripts run). */
export async function installGlCensus(context: BrowserContext): Promise<void> {
  // tsx names the functions it compiles with a helper the page does not have.
  await context.addInitScript('globalThis.__name ??= (f) => f')
  await context.addInitScript(() => {
    if (window.__glCensus) return
    type Gl = WebGLRenderingContext | WebGL2RenderingContext
    const live = new Set<WeakRef<Gl>>()
    const textures = new WeakMap<Gl, number>()
    let created = 0
    const wrapContext = (proto: { getContext: (...args: never[]) => unknown }) => {
      const original = proto.getContext
      proto.getContext = function (this: unknown, ...args: never[]) {
        const ctx = original.apply(this, args) as Gl | null
        const kind = String(args[0])
        if (ctx && /^(webgl2?|experimental-webgl)$/.test(kind) && !textures.has(ctx)) {
          textures.set(ctx, 0)
          live.add(new WeakRef(ctx))
          created += 1
        }
        return ctx
      }
    }
    wrapContext(HTMLCanvasElement.prototype as never)
    if (typeof OffscreenCanvas !== 'undefined') wrapContext(OffscreenCanvas.prototype as never)
    for (const Gl of [WebGLRenderingContext, WebGL2RenderingContext]) {
      const proto = Gl.prototype as Gl
      const create = proto.createTexture
      const remove = proto.deleteTexture
      const made = new WeakSet<WebGLTexture>()
      proto.createTexture = function (this: Gl) {
        const texture = create.call(this)
        if (texture) {
          made.add(texture)
          textures.set(this, (textures.get(this) ?? 0) + 1)
        }
        return texture
      }
      proto.deleteTexture = function (this: Gl, texture: WebGLTexture | null) {
        if (texture && made.has(texture)) {
          made.delete(texture)
          textures.set(this, (textures.get(this) ?? 0) - 1)
        }
        remove.call(this, texture)
      }
    }
    window.__glCensus = () => {
      let contexts = 0
      let count = 0
      for (const ref of live) {
        const ctx = ref.deref()
        if (!ctx || ctx.isContextLost()) {
          live.delete(ref)
          continue
        }
        contexts += 1
        count += textures.get(ctx) ?? 0
      }
      return { contexts, textures: count, created }
    }
  })
}

/** The page's census now (after the caller has forced a garbage collection). */
export function glCensus(page: Page): Promise<GlCensus> {
  return page.evaluate(() => window.__glCensus!())
}
