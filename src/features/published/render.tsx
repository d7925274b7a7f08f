import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { createHash } from 'node:crypto'
import { renderToString } from 'react-dom/server'
import type { PageSnapshot } from '../../domain/publish.ts'
import type { LocalBlock } from '../editor/editor-data.ts'
import { FONT_FILES } from '../editor/fonts/font-files.ts'
import { facesUsedBy, FONT_SUBSETS, type FontFaceRef } from '../editor/model/fonts.ts'
import { blocksInOrder } from '../editor/model/preview-layout.ts'
import { PublishedPage } from './page.tsx'
import { pageScript } from './page-script.ts'
import { messages as appMessages } from '../../locales/ru/messages.po'
import { notFoundTexts, pageTexts } from './texts.ts'

/**
 * The published page's HTML (docs/publishing.md), rendered on the server with react-dom/server
 * from the same components as the in-app preview. The server imports this module built
 * (`npm run build` makes dist-page/render.js) or, under its tests, from source; it renders
 * each published version once and keeps the result.
 */

export interface RenderInput {
  snapshot: PageSnapshot
  /** The page's absolute address: canonical and og:url. */
  url: string
  /** The server's public origin, for absolute image addresses in Open Graph. */
  origin: string
}

export interface RenderedPage {
  html: string
  /** The Content-Security-Policy that lets exactly this page's script run. */
  csp: string
}

/** Bumped when the markup changes for the same snapshot, so cached copies and ETags renew. */
export const RENDER_REVISION = '1'

const SCRIPT = `(${pageScript.toString()})()`
const SCRIPT_HASH = `'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`

export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${SCRIPT_HASH}`,
  "style-src 'unsafe-inline'",
  "img-src 'self' data: https:",
  "media-src 'self' https:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

const THEME = '#1c7ed6'

/** The page's own CSS: the frame around the sections; the blocks style themselves. */
const CSS = `*,*::before,*::after{box-sizing:border-box}
html,body{margin:0;padding:0}
body{background:#fff;color:#111;font-family:Roboto,Arial,Helvetica,sans-serif;-webkit-text-size-adjust:100%}
main{display:block;margin:0 auto;background:#fff}
.landing{width:100%}
.stories{background:#000}
body:has(.stories){background:#000}
.stories>section{width:min(100vw,calc(100vh*9/16));margin:0 auto}
.progress{display:none}
.js-stories body{overflow:hidden}
.js-stories .stories{position:relative;height:100vh;height:100dvh;display:flex;align-items:center;justify-content:center;touch-action:pan-y;user-select:none;-webkit-user-select:none}
.js-stories .stories>section{width:min(100vw,calc(100dvh*9/16));max-height:100dvh}
.js-stories .stories>section[hidden]{display:none}
.js-stories .progress{display:flex;gap:4px;position:absolute;top:10px;left:50%;transform:translateX(-50%);width:min(calc(100vw - 20px),calc(100dvh*9/16 - 20px));z-index:2000000}
.progress span{flex:1;height:3px;border-radius:2px;background:rgba(255,255,255,.4)}
.progress span.on{background:#fff}
.empty{padding:48px 16px;text-align:center;font-size:18px}
section a:focus-visible,section button:focus-visible{outline:3px solid ${THEME};outline-offset:2px}`

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  )

/** The first words a visitor reads: the first text block of the first sections, top first. */
export function pageDescription(snapshot: PageSnapshot): string {
  const blocks = snapshot.blocks as unknown as LocalBlock[]
  for (const bg of snapshot.backgrounds) {
    const text = blocksInOrder(blocks, bg.id)
      .filter((b) => b.type === 'text' && b.text.trim())
      .sort((a, b) => a.y - b.y)[0]
    if (text && text.type === 'text') {
      const flat = text.text.replace(/\s+/g, ' ').trim()
      return flat.length > 160 ? `${flat.slice(0, 157).trimEnd()}…` : flat
    }
  }
  return ''
}

function fontFiles(face: FontFaceRef) {
  return (FONT_FILES[face.family] ?? []).filter((file) => file.weight === face.weight)
}

/** @font-face rules of the faces the page draws with, Cyrillic and Latin, swapped in on load. */
function fontFaceCss(faces: readonly FontFaceRef[]): string {
  return faces
    .flatMap((face) =>
      fontFiles(face).map(
        (file) =>
          `@font-face{font-family:'${face.family}';font-style:normal;font-weight:${face.weight};` +
          `font-display:swap;src:url(${file.url}) format('woff2');` +
          `unicode-range:${FONT_SUBSETS[file.subset]}}`,
      ),
    )
    .join('\n')
}

let activated = false
function activateRussian() {
  if (activated) return
  // The editor's catalog is loaded by the page's components (editor-messages.ts); the app's holds
  // the page's own words.
  i18n.load('ru', appMessages)
  i18n.activate('ru')
  activated = true
}

export function renderPage(input: RenderInput): RenderedPage {
  activateRussian()
  const { snapshot } = input
  const resolveFileUrl = (url: string) => url
  const body = renderToString(
    <I18nProvider i18n={i18n}>
      <PublishedPage snapshot={snapshot} resolveFileUrl={resolveFileUrl} />
    </I18nProvider>,
  )
  const blocks = snapshot.blocks as unknown as LocalBlock[]
  const faces = facesUsedBy(blocks)
  const first = snapshot.backgrounds[0]
  const firstFaces = first ? facesUsedBy(blocksInOrder(blocks, first.id)) : []
  const preloads = firstFaces
    .flatMap((face) => fontFiles(face).filter((file) => file.subset === 'cyrillic'))
    .map(
      (file) => `<link rel="preload" href="${file.url}" as="font" type="font/woff2" crossorigin>`,
    )
  const texts = pageTexts()
  const title = snapshot.project.name.trim() || texts.untitled
  const description = pageDescription(snapshot)
  const ogImage = first?.image_url ? new URL(first.image_url, input.origin || input.url).href : null
  const firstImage = first?.image_url
    ? `<link rel="preload" as="image" href="${escapeHtml(first.image_url)}" fetchpriority="high">`
    : ''
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">',
    `<title>${escapeHtml(title)}</title>`,
    description ? `<meta name="description" content="${escapeHtml(description)}">` : '',
    `<link rel="canonical" href="${escapeHtml(input.url)}">`,
    `<meta name="theme-color" content="${THEME}">`,
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    '<meta property="og:type" content="website">',
    '<meta property="og:locale" content="ru_RU">',
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    description ? `<meta property="og:description" content="${escapeHtml(description)}">` : '',
    `<meta property="og:url" content="${escapeHtml(input.url)}">`,
    ogImage ? `<meta property="og:image" content="${escapeHtml(ogImage)}">` : '',
    '<meta name="twitter:card" content="summary_large_image">',
    firstImage,
    ...preloads,
    `<style>${CSS}\n${fontFaceCss(faces)}</style>`,
  ]
    .filter(Boolean)
    .join('\n')
  const html =
    `<!doctype html>\n<html lang="ru">\n<head>\n${head}\n</head>\n<body>\n${body}\n` +
    `<script>${SCRIPT}</script>\n</body>\n</html>\n`
  return { html, csp: PAGE_CSP }
}

/** The small page of an unknown or unpublished address, in Russian. */
export function renderNotFound(): string {
  activateRussian()
  const texts = notFoundTexts()
  return (
    '<!doctype html>\n<html lang="ru">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    '<meta name="robots" content="noindex">\n' +
    `<title>${escapeHtml(texts.title)}</title>\n` +
    '<style>body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;' +
    'font-family:Roboto,Arial,Helvetica,sans-serif;background:#f8f9fa;color:#212529;text-align:center;padding:16px}' +
    'h1{font-size:24px;margin:0 0 8px}p{margin:0;color:#495057}</style>\n' +
    `</head>\n<body>\n<main><h1>${escapeHtml(texts.title)}</h1><p>${escapeHtml(texts.body)}</p></main>\n</body>\n</html>\n`
  )
}

export const NOT_FOUND_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'"
