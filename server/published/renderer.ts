import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createHash } from 'node:crypto'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { PageSnapshot } from '../../src/domain/publish.ts'

/**
 * The published page's renderer (docs/publishing.md): `src/features/published/render.tsx`, the
 * app's own block components rendered with react-dom/server. It is compiled as the app is (the
 * Lingui macros, the catalogs, the font files' addresses), so the server loads it built
 * (`npm run build` writes dist-page/render.js) and, under the test runner, which compiles it the
 * same way, from source.
 */
/** What each rendering takes: the snapshot, its slug and addresses. */
export interface RenderInput {
  snapshot: PageSnapshot
  slug: string
  url: string
  origin: string
  /** Where the page's own cut fonts are served (page-fonts.ts). */
  fontBase?: string
}
export interface Rendered {
  html: string
  csp: string
  /** The page's own font files (with a fontBase): their names, sources and characters. */
  fonts?: { file: string; source: string; text: string }[]
}

export interface PageRenderer {
  renderPage(input: RenderInput): Rendered
  /** A request form alone with the server's errors (a form sent without JavaScript). */
  renderFormPage(
    input: RenderInput,
    blockId: number,
    errors: Record<string, string>,
    values: { name?: string; phone?: string; comment?: string; consent?: boolean },
  ): Rendered | null
  renderThanksPage(input: RenderInput, blockId: number): Rendered | null
  renderNoticePage(input: RenderInput, kind: 'limited' | 'expired'): Rendered
  renderPrivacyPage(input: RenderInput): Rendered
  renderNotFound(): string
  NOT_FOUND_CSP: string
  /** A published page's Content-Security-Policy, the same for every page (its script's hash). */
  PAGE_CSP: string
  /** The forms' slots the server stamps per answer, and the two slot strings. */
  FORM_SLOTS: RegExp
  FORM_TOKEN_SLOT: string
  SUBMISSION_SLOT: string
  /** Names this build of the renderer: cached pages and ETags of another build are not reused. */
  revision: string
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const BUILT_RENDERER = `${ROOT}dist-page/render.js`
const SOURCE_RENDERER = `${ROOT}src/features/published/render.tsx`

/** 'source' under the test runner (it compiles the app's code), 'built' otherwise. */
export type RendererSource = 'source' | 'built'

export function defaultRendererSource(): RendererSource {
  return process.env.VITEST ? 'source' : 'built'
}

/** Loads the renderer; null when it is not built (the pages answer 503 until it is). */
export async function loadRenderer(source: RendererSource): Promise<PageRenderer | null> {
  const path = source === 'source' ? SOURCE_RENDERER : BUILT_RENDERER
  if (!existsSync(path)) return null
  const module = (await import(/* @vite-ignore */ pathToFileURL(path).href)) as Omit<
    PageRenderer,
    'revision'
  > & { RENDER_REVISION: string }
  const bytes = source === 'built' ? await readFile(path) : null
  const revision = bytes
    ? createHash('sha256').update(bytes).digest('base64url').slice(0, 10)
    : `src${module.RENDER_REVISION}`
  return { ...module, revision }
}
