/**
 * Tells when the GPU has finished the work asked of it so far, without waiting for it: a WebGL2
 * fence, polled with a zero timeout. Pixi's calls return before the GPU draws (in software a
 * picture of 1,000 blocks takes about half a second), so the time a picture costs is only known
 * once its fence has passed. Reading a pixel back would tell too, but it stalls the GPU's pipeline
 * and the page until everything queued is drawn (docs/editor.md "Drawing").
 */
export interface GpuFence {
  /** Whether the GPU has got past the fence (never blocks). */
  passed(): boolean
  dispose(): void
}

/** A fence after the work queued so far, or null without WebGL2 (the cost is then unknown). */
export function gpuFence(
  gl: WebGLRenderingContext | WebGL2RenderingContext | undefined,
): GpuFence | null {
  if (!gl || typeof (gl as WebGL2RenderingContext).fenceSync !== 'function') return null
  const gl2 = gl as WebGL2RenderingContext
  const sync = gl2.fenceSync(gl2.SYNC_GPU_COMMANDS_COMPLETE, 0)
  if (!sync) return null
  // Without a flush the fence may sit in the command buffer and never pass.
  gl2.flush()
  let passed = false
  let disposed = false
  return {
    passed() {
      if (passed || disposed) return passed
      // A zero timeout only asks; it is also the only timeout WebGL allows on the main thread.
      const status = gl2.clientWaitSync(sync, 0, 0)
      passed =
        status === gl2.ALREADY_SIGNALED ||
        status === gl2.CONDITION_SATISFIED ||
        // A lost context never signals: count it as passed rather than wait forever.
        status === gl2.WAIT_FAILED
      return passed
    },
    dispose() {
      if (disposed) return
      disposed = true
      gl2.deleteSync(sync)
    },
  }
}
