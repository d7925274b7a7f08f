/**
 * The GPU's largest texture side, as WebGL tells it (`MAX_TEXTURE_SIZE`); 4096, which every tablet
 * has, when there is no WebGL context to ask. The drag layer and the pan picture keep their
 * textures within it.
 */
export function maxTextureSize(gl: Partial<WebGLRenderingContext> | undefined): number {
  const size = typeof gl?.getParameter === 'function' ? gl.getParameter(0x0d33) : undefined
  return typeof size === 'number' && size > 0 ? size : 4096
}
