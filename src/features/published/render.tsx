import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { createHash } from 'node:crypto'
import { renderToString } from 'react-dom/server'
import { takesRequests } from '../../domain/block.ts'
import { imageSrcsets, type PageSnapshot } from '../../domain/publish.ts'
import { EMBED_ORIGINS } from '../../domain/video-embed.ts'
import {
  blocksInOrder,
  facesUsedBy,
  FONT_FILES,
  FONT_SUBSETS,
  type FontFaceRef,
  type LocalBlock,
  stillTime,
} from '../editor/page-kit.ts'
import { PublishedPage } from './page.tsx'
import {
  FORM_TOKEN_SLOT,
  FormStamps,
  formBlocks,
  RequestForm,
  SUBMISSION_SLOT,
  Thanks,
  type FormValues,
} from './forms.tsx'
import { pageScript } from './page-script.ts'
import { messages as appMessages } from '../../locales/ru/messages.po'
import { messageTexts, notFoundTexts, pageTexts, privacyTexts } from './texts.ts'

/**
 * The published page's HTML (docs/publishing.md), rendered on the server with react-dom/server
 * from the same components as the in-app preview. The server imports this module built
 * (`npm run build` makes dist-page/render.js) or, under its tests, from source; it renders
 * each published version once and keeps the result.
 */

export interface RenderInput {
  snapshot: PageSnapshot
  slug: string
  /** The page's absolute address: canonical and og:url. */
  url: string
  /** The server's public origin, for absolute image addresses in Open Graph. */
  origin: string
  /**
   * Where this page's own font files are served (`/p/{slug}/fonts/{version}/`): each face cut
   * down to the characters the page shows. Without it the pages link the whole @fontsource files.
   */
  fontBase?: string
}

/** One of a page's own font files: the @fontsource file it is cut from and the characters kept. */
export interface PageFontFile {
  /** Its name under the page's `fontBase`. */
  file: string
  /** The @fontsource package's file it is cut from (`roboto/files/roboto-cyrillic-400-normal.woff2`). */
  source: string
  text: string
}

export interface RenderedPage {
  html: string
  /** The Content-Security-Policy that lets exactly this page's script run. */
  csp: string
  /** The page's own font files, when it was given a `fontBase`. */
  fonts?: PageFontFile[]
}

/**
 * Where the server stamps each answer's own values (the forms' token and submission id): all of
 * them after the page's script, so that everything before the first is the same in every answer.
 */
export const FORM_SLOTS = new RegExp(`${FORM_TOKEN_SLOT}|${SUBMISSION_SLOT}`)
export { FORM_TOKEN_SLOT, SUBMISSION_SLOT }

/** Bumped when the markup changes for the same snapshot, so cached copies and ETags renew. */
export const RENDER_REVISION = '3'

const SCRIPT = `(${pageScript.toString()})(${stillTime.toString()})`
const SCRIPT_HASH = `'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`

export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${SCRIPT_HASH}`,
  "style-src 'unsafe-inline'",
  "img-src 'self' data: https:",
  "media-src 'self' https:",
  `frame-src ${EMBED_ORIGINS.join(' ')}`,
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

const THEME = '#1c7ed6'

/** The request forms' sheets (forms.tsx): a bottom sheet on a phone, a card on a wider screen. */
const SHEET_CSS = `.sheet{display:none;position:fixed;inset:0;z-index:3000000;align-items:flex-end;justify-content:center}
.sheet:target,.sheet.open{display:flex}
.sheet.open{position:static;min-height:100vh;align-items:center;background:#f1f3f5;padding:16px}
.sheet-backdrop{position:absolute;inset:0;background:rgba(0,0,0,.55)}
.sheet-card{position:relative;background:#fff;width:100%;max-width:440px;max-height:100%;overflow:auto;border-radius:16px 16px 0 0;padding:20px 20px 24px;font:16px/1.4 system-ui,-apple-system,'Segoe UI',Arial,sans-serif;color:#212529}
.sheet.open .sheet-card{border-radius:16px}
@media (min-width:600px){.sheet{align-items:center}.sheet-card{border-radius:16px}}
.sheet-close{position:absolute;top:6px;right:8px;font-size:28px;line-height:1;text-decoration:none;color:#495057;padding:6px 10px}
.sheet h2{margin:0 36px 4px 0;font-size:20px;line-height:1.25}
.sheet-line{margin:0 0 4px;color:#495057}
.sheet-photo{float:right;border-radius:50%;object-fit:cover;margin:0 28px 8px 12px}
.sheet form{display:flex;flex-direction:column;gap:6px;margin-top:12px;clear:both}
.sheet label{font-size:14px;color:#495057}
.sheet input[type=text],.sheet input[type=tel],.sheet textarea{font:inherit;padding:10px 12px;border:1px solid #ced4da;border-radius:8px;width:100%;background:#fff;color:#212529}
.sheet [aria-invalid=true]{border-color:#e03131}
.field-error,.form-error{color:#c92a2a;font-size:14px;margin:0}
.consent{display:flex;gap:8px;align-items:flex-start;margin-top:6px}
.consent input{margin:2px 0 0;width:20px;height:20px;flex:none}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.sheet button,.sheet-button{display:block;margin-top:10px;font:600 16px/1.2 system-ui,-apple-system,'Segoe UI',Arial,sans-serif;padding:14px;border:0;border-radius:10px;background:${THEME};color:#fff;cursor:pointer;text-align:center;text-decoration:none}
.sheet button:disabled{opacity:.6;cursor:progress}`

/** The page's own CSS: the frame around the sections; the blocks style themselves. */
const CSS = `*,*::before,*::after{box-sizing:border-box}
html,body{margin:0;padding:0}
body{background:#fff;color:#111;font-family:system-ui,-apple-system,'Segoe UI',Arial,sans-serif;-webkit-text-size-adjust:100%}
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
section a:focus-visible,section button:focus-visible{outline:3px solid ${THEME};outline-offset:2px}
${SHEET_CSS}`

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

/** A @fontsource package's name for a family («PT Sans» → `pt-sans`). */
const fontPackage = (family: string) => family.toLowerCase().replace(/\s+/g, '-')

/** The characters of a subset's unicode-range (`U+0400-045F,U+2116`) found in `text`. */
function inRange(text: string, range: string): string {
  const spans = range.split(',').map((part) => {
    const [from, to] = part.replace('U+', '').split('-')
    return [parseInt(from!, 16), parseInt(to ?? from!, 16)] as const
  })
  const kept = new Set<string>()
  for (const ch of text) {
    const code = ch.codePointAt(0)!
    if (spans.some(([a, b]) => code >= a && code <= b)) kept.add(ch)
  }
  return [...kept].sort().join('')
}

interface FaceFile {
  face: FontFaceRef
  subset: keyof typeof FONT_SUBSETS
  url: string
  /** Set for a page's own (cut) file. */
  own?: PageFontFile
}

/**
 * The font files the page links: each face's Cyrillic and Latin @fontsource files, or with a
 * `fontBase` its own cut of each holding only the characters the page shows (a subset with none
 * of them is left out: nothing would ask for it).
 */
function pageFontFiles(faces: readonly FontFaceRef[], text: string, fontBase?: string): FaceFile[] {
  return faces.flatMap((face) =>
    fontFiles(face).flatMap((file): FaceFile[] => {
      if (!fontBase) return [{ face, subset: file.subset, url: file.url }]
      const kept = inRange(text, FONT_SUBSETS[file.subset])
      if (!kept) return []
      const pkg = fontPackage(face.family)
      const name = `${pkg}-${file.subset}-${face.weight}.woff2`
      return [
        {
          face,
          subset: file.subset,
          url: `${fontBase}${name}`,
          own: {
            file: name,
            source: `${pkg}/files/${pkg}-${file.subset}-${face.weight}-normal.woff2`,
            text: kept,
          },
        },
      ]
    }),
  )
}

/** @font-face rules of the faces the page draws with, swapped in on load. */
function fontFaceCss(files: readonly FaceFile[]): string {
  return files
    .map(
      ({ face, subset, url }) =>
        `@font-face{font-family:'${face.family}';font-style:normal;font-weight:${face.weight};` +
        `font-display:swap;src:url(${url}) format('woff2');` +
        `unicode-range:${FONT_SUBSETS[subset]}}`,
    )
    .join('\n')
}

/** The page's sections: the body up to the end of its `<main>`, before the request forms. */
const sectionsOf = (body: string) => {
  const end = body.lastIndexOf('</main>')
  return end < 0 ? body : body.slice(0, end)
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  nbsp: '\u00a0',
}

/**
 * Each character a rendered body shows, once (its tags skipped, entities read): one pass over the
 * markup, which on a page of 200 blocks is 400 KB.
 */
function shownCharacters(html: string): string {
  // Seen characters of the Basic Multilingual Plane by code, the rest (emoji) apart.
  const seen = new Uint8Array(0x10000)
  const astral = new Set<number>()
  const add = (code: number) => {
    if (code > 0xffff) astral.add(code)
    else seen[code] = 1
  }
  let inTag = false
  for (let i = 0; i < html.length; i++) {
    const unit = html.charCodeAt(i)
    if (inTag) {
      if (unit === 0x3e) inTag = false
      continue
    }
    if (unit === 0x3c) {
      inTag = true
      continue
    }
    if (unit === 0x26) {
      const end = html.indexOf(';', i)
      const entity = end > i && end - i <= 10 ? html.slice(i + 1, end) : ''
      if (/^(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|nbsp)$/i.test(entity)) {
        if (entity[0] !== '#') add(NAMED_ENTITIES[entity.toLowerCase()]!.charCodeAt(0))
        else {
          const hex = entity[1] === 'x' || entity[1] === 'X'
          add(parseInt(entity.slice(hex ? 2 : 1), hex ? 16 : 10))
        }
        i = end
        continue
      }
    }
    if (unit >= 0xd800 && unit <= 0xdbff) {
      add(html.codePointAt(i)!)
      i++
    } else add(unit)
  }
  let text = ''
  for (let code = 0; code <= 0xffff; code++) if (seen[code]) text += String.fromCharCode(code)
  for (const code of astral) text += String.fromCodePoint(code)
  return text
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
      <PublishedPage snapshot={snapshot} slug={input.slug} resolveFileUrl={resolveFileUrl} />
    </I18nProvider>,
  )
  const blocks = snapshot.blocks as unknown as LocalBlock[]
  const first = snapshot.backgrounds[0]
  // Every character the sections show goes into each face's cut, whichever block draws it: a cut
  // is a few kilobytes, and a glyph missing from one would be drawn in another font. (The request
  // forms after them are set in the system's font.)
  const files = pageFontFiles(
    facesUsedBy(blocks),
    shownCharacters(sectionsOf(body)),
    input.fontBase,
  )
  const firstFaces = new Set(
    (first ? facesUsedBy(blocksInOrder(blocks, first.id)) : []).map(
      (face) => `${face.family}:${face.weight}`,
    ),
  )
  // The first screen's faces are asked for at once (their Cyrillic; all of a page's own cut).
  const preloads = files
    .filter((f) => firstFaces.has(`${f.face.family}:${f.face.weight}`))
    .filter((f) => f.own || f.subset === 'cyrillic')
    .map((f) => `<link rel="preload" href="${f.url}" as="font" type="font/woff2" crossorigin>`)
  const texts = pageTexts()
  const title = snapshot.project.name.trim() || texts.untitled
  const description = pageDescription(snapshot)
  const ogImage = first?.image_url ? new URL(first.image_url, input.origin || input.url).href : null
  // The largest paint is the first section's image: asked for first, in the size the screen needs.
  const firstSize = first ? snapshot.images?.[first.image_url] : undefined
  const firstSets = first && firstSize ? imageSrcsets(first.image_url, firstSize.width) : null
  const firstImage = !first?.image_url
    ? ''
    : firstSets
      ? `<link rel="preload" as="image" type="image/webp" imagesrcset="${escapeHtml(firstSets.webp)}" imagesizes="100vw" fetchpriority="high">`
      : `<link rel="preload" as="image" href="${escapeHtml(first.image_url)}" fetchpriority="high">`
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
    `<style>${CSS}\n${fontFaceCss(files)}</style>`,
  ]
    .filter(Boolean)
    .join('\n')
  const stamps = formStamps(formBlocks(snapshot).map((b) => b.id))
  const html =
    `<!doctype html>\n<html lang="ru">\n<head>\n${head}\n</head>\n<body>\n${body}\n` +
    `<script>${SCRIPT}</script>\n${stamps}</body>\n</html>\n`
  const fonts = files.flatMap((f) => (f.own ? [f.own] : []))
  return { html, csp: PAGE_CSP, ...(input.fontBase ? { fonts } : {}) }
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

/** The forms' stamped fields (forms.tsx), each line ended. */
function formStamps(blockIds: readonly number[]): string {
  return blockIds.length === 0 ? '' : `${renderToString(<FormStamps blockIds={blockIds} />)}\n`
}

/**
 * A page of the published project's own (a form, a thank-you, a notice): its CSS; a form's page
 * has the script and the form's stamped fields.
 */
function smallPage(title: string, body: string, formOf?: number): RenderedPage {
  const withScript = formOf !== undefined
  const html =
    '<!doctype html>\n<html lang="ru">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    '<meta name="robots" content="noindex">\n' +
    `<title>${escapeHtml(title)}</title>\n<link rel="icon" href="/favicon.svg" type="image/svg+xml">\n` +
    `<style>${CSS}</style>\n</head>\n<body>\n${body}\n` +
    (withScript ? `<script>${SCRIPT}</script>\n${formStamps([formOf])}` : '') +
    '</body>\n</html>\n'
  return { html, csp: withScript ? PAGE_CSP : NOT_FOUND_CSP }
}

function blockOf(snapshot: PageSnapshot, blockId: number) {
  return snapshot.blocks.find((b) => b.id === blockId && takesRequests(b.type))
}

/**
 * A request form alone, open, with the server's errors next to its fields and what was typed
 * kept: the answer to a form sent without JavaScript that did not pass (docs/requests.md).
 */
export function renderFormPage(
  input: RenderInput,
  blockId: number,
  errors: Record<string, string>,
  values: FormValues,
): RenderedPage | null {
  activateRussian()
  const block = blockOf(input.snapshot, blockId)
  if (!block) return null
  const body = renderToString(
    <I18nProvider i18n={i18n}>
      <RequestForm
        block={block}
        slug={input.slug}
        snapshot={input.snapshot}
        errors={errors}
        values={values}
        standalone
      />
    </I18nProvider>,
  )
  return smallPage(input.snapshot.project.name || pageTexts().untitled, body, block.id)
}

/** The thank-you page after a form sent without JavaScript. */
export function renderThanksPage(input: RenderInput, blockId: number): RenderedPage | null {
  activateRussian()
  const block = blockOf(input.snapshot, blockId)
  if (!block) return null
  const back = messageTexts().back
  const body = renderToString(
    <I18nProvider i18n={i18n}>
      <div className="sheet open">
        <div className="sheet-card">
          <Thanks block={block} snapshot={input.snapshot} />
          <a className="sheet-button" href={`/p/${input.slug}`}>
            {back}
          </a>
        </div>
      </div>
    </I18nProvider>,
  )
  return smallPage(input.snapshot.project.name || pageTexts().untitled, body)
}

/** A short notice on the page's own frame: too many requests, or a form left open too long. */
export function renderNoticePage(input: RenderInput, kind: 'limited' | 'expired'): RenderedPage {
  activateRussian()
  const texts = messageTexts()
  const [title, text] = kind === 'limited' ? texts.limited : texts.expired
  const body =
    `<div class="sheet open"><div class="sheet-card"><h2>${escapeHtml(title)}</h2>` +
    `<p>${escapeHtml(text)}</p><a class="sheet-button" href="/p/${escapeHtml(input.slug)}">` +
    `${escapeHtml(texts.back)}</a></div></div>`
  return smallPage(title, body)
}

/** How the page's requests are processed, linked from every form's consent (152-ФЗ). */
export function renderPrivacyPage(input: RenderInput): RenderedPage {
  activateRussian()
  const texts = privacyTexts(input.snapshot.project.name || pageTexts().untitled)
  const body =
    `<div class="sheet open"><div class="sheet-card"><h2>${escapeHtml(texts.title)}</h2>` +
    texts.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('') +
    `<a class="sheet-button" href="/p/${escapeHtml(input.slug)}">${escapeHtml(messageTexts().back)}</a>` +
    '</div></div>'
  return smallPage(texts.title, body)
}
