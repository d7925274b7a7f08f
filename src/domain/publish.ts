import * as v from 'valibot'
import { FieldCode, Id } from './validation.ts'

/**
 * Published pages (docs/publishing.md): a project's snapshot at a public address `/p/{slug}`.
 * Shared by the app, the sync worker and the server.
 */

/** Slugs the server's own paths use, or that would read as the product's: never a page's. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'api',
  'admin',
  'app',
  'p',
  'uploads',
  'assets',
  'static',
  'login',
  'logout',
  'register',
  'settings',
  'workspace',
  'project',
  'projects',
  'appeal',
  'analytics',
  'help',
  'www',
  'sw',
  'manifest',
  'favicon',
  'robots',
  'sitemap',
])

export const SLUG_MIN = 3
export const SLUG_MAX = 60
const SLUG_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** A page's address: 3–60 of a-z, 0-9 and single inner hyphens, not a reserved word. */
export const Slug = v.pipe(
  v.string(FieldCode.invalidSlug),
  v.trim(),
  v.toLowerCase(),
  v.check(
    (s) => s.length >= SLUG_MIN && s.length <= SLUG_MAX && SLUG_SHAPE.test(s),
    FieldCode.invalidSlug,
  ),
  v.check((s) => !RESERVED_SLUGS.has(s), FieldCode.reservedSlug),
)

/** A project's public state as every answer that returns a project carries it. */
export const PublishedState = v.object({
  slug: v.string(),
  /** The page's absolute address. */
  url: v.string(),
  published_at: v.string(),
  /** The project, its backgrounds or blocks changed after the snapshot. */
  changed_since: v.boolean(),
})
export type PublishedState = v.InferOutput<typeof PublishedState>

export const PublishInput = v.object({ project_id: Id })
export const SetSlugInput = v.object({ project_id: Id, slug: Slug })

export const PublishResult = v.object({
  project_id: Id,
  slug: v.string(),
  url: v.string(),
  published_at: v.string(),
  published_version: v.number(),
})
export type PublishResult = v.InferOutput<typeof PublishResult>

export const UnpublishResult = v.object({ project_id: Id, published: v.literal(false) })
export type UnpublishResult = v.InferOutput<typeof UnpublishResult>

export const SetSlugResult = v.object({ project_id: Id, slug: v.string(), url: v.string() })
export type SetSlugResult = v.InferOutput<typeof SetSlugResult>

/** Russian letters as Latin ones, the readable scheme of Russian passports and road signs. */
const TRANSLIT: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'c',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
}

/**
 * The slug a project's name reads as: transliterated, lower case, other characters as single
 * hyphens, cut to the limit at a word. Too short or reserved: `page` plus whatever it made. The
 * caller makes it unique.
 */
export function slugFromName(name: string): string {
  let out = ''
  for (const ch of name.toLowerCase()) {
    const t = TRANSLIT[ch]
    if (t !== undefined) out += t
    else if (/[a-z0-9]/.test(ch)) out += ch
    else out += '-'
  }
  out = out.replace(/-+/g, '-').replace(/^-|-$/g, '')
  // Room for a uniqueness suffix («-x7k2»).
  const max = SLUG_MAX - 5
  if (out.length > max) {
    const cut = out.slice(0, max + 1)
    const dash = cut.lastIndexOf('-')
    out = (dash >= SLUG_MIN ? cut.slice(0, dash) : out.slice(0, max)).replace(/-$/, '')
  }
  if (out.length < SLUG_MIN || RESERVED_SLUGS.has(out)) out = out ? `page-${out}` : 'page'
  return out
}

/** The path of a published page. */
export const pagePath = (slug: string) => `/p/${slug}`

/** A specialist as a published subscribe block shows them, as they were when it was published. */
export interface PageSpecialist {
  id: number
  name: string
  position: string
  photo_url: string
}

/**
 * What a publish keeps (docs/publishing.md): the project's name and type, its backgrounds in order
 * and their blocks as stored at that moment, and the specialists its subscribe blocks name. The
 * public page is rendered from this alone.
 */
export interface PageSnapshot {
  project: { id: number; name: string; type: 1 | 2 | null }
  backgrounds: {
    id: number
    image_url: string
    width: number
    height: number
    position: number
  }[]
  /** Each block as project/get_items answers it (its fields, id, bg_id and type). */
  blocks: ({ id: number; bg_id: number; type: string } & Record<string, unknown>)[]
  specialists: PageSpecialist[]
  /** The pixel size of each uploaded image the page shows, by address (for `srcset`). */
  images?: Record<string, { width: number; height: number }>
}

/** The widths a published page offers of an uploaded image (docs/publishing.md,
 * "Rendering on the server"). */
export const VARIANT_WIDTHS = [480, 960, 1440, 2048] as const

const VARIANT_SOURCE = /^\/uploads\/((?:seed-)?[a-z0-9]+(?:-[a-z0-9]+)*)\.(jpg|png|webp)$/

/**
 * The `srcset`s of an uploaded JPEG, PNG or WebP image `width` pixels wide: WebP, and its own
 * format, at each offered width below its own (`/uploads/<stem>--w<width>.<ext>`), the largest
 * being the image at its own size; null for anything else (GIF, SVG, outside addresses).
 */
export function imageSrcsets(url: string, width: number): { webp: string; own: string } | null {
  const match = VARIANT_SOURCE.exec(url)
  if (!match || !(width > 0)) return null
  const [, stem, extension] = match
  const smaller = VARIANT_WIDTHS.filter((w) => w < width)
  const at = (w: number, ext: string) => `/uploads/${stem}--w${w}.${ext} ${w}w`
  const largest = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]!
  const webp = [...smaller.map((w) => at(w, 'webp'))]
  // The largest WebP is the image at its own size (or 2048 wide, when it is wider).
  if (width <= largest) webp.push(`/uploads/${stem}--w${largest}.webp ${width}w`)
  const own = [...smaller.map((w) => at(w, extension!)), `${url} ${width}w`]
  return { webp: webp.join(', '), own: own.join(', ') }
}
