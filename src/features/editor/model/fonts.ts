import { DEFAULT_FONT } from '../../../domain/block.ts'
import { fontsOf } from '../blocks/index.ts'
import type { LocalBlock } from '../editor-data.ts'

/**
 * The fonts text and button blocks can use. System fonts (Arial, Tahoma, …) differ between an
 * editor's iPad, a visitor's Android phone and a Linux desktop, so the families offered are web
 * fonts served by the app itself (@fontsource files, Cyrillic and Latin, regular and bold). Each
 * keeps system fonts of a similar shape behind it in the stack, drawn until the web font has loaded
 * and for characters it lacks (the rouble sign, for one).
 *
 * Pure: no DOM, no Pixi. The font files and their loading live in ../fonts/.
 */

export interface WebFontFamily {
  /** The CSS family name, also the stored `font` value and the label in the picker. */
  family: string
  /** System fonts of a similar shape, in order. */
  fallbacks: readonly string[]
  generic: 'sans-serif' | 'serif'
}

export const WEB_FONTS: readonly WebFontFamily[] = [
  { family: 'Roboto', fallbacks: ['Arial', 'Helvetica'], generic: 'sans-serif' },
  { family: 'Inter', fallbacks: ['Helvetica', 'Arial'], generic: 'sans-serif' },
  { family: 'Montserrat', fallbacks: ['Verdana', 'Arial'], generic: 'sans-serif' },
  { family: 'PT Sans', fallbacks: ['Tahoma', 'Arial'], generic: 'sans-serif' },
  { family: 'PT Serif', fallbacks: ['Georgia', 'Times New Roman'], generic: 'serif' },
  { family: 'Lora', fallbacks: ['Georgia', 'Times New Roman'], generic: 'serif' },
]

/** The font of new text and button blocks, and of the gift, price and subscribe cards. */
export { DEFAULT_FONT } from '../../../domain/block.ts'

/** The weights shipped: regular for block text, bold for the cards' titles and buttons. */
export type FontWeight = 400 | 700
export const FONT_WEIGHTS: readonly FontWeight[] = [400, 700]

/** The character sets shipped, with the unicode ranges of @fontsource's subsets. */
export const FONT_SUBSETS = {
  cyrillic: 'U+0301,U+0400-045F,U+0490-0491,U+04B0-04B1,U+2116',
  latin:
    'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,' +
    'U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD',
} as const
export type FontSubset = keyof typeof FONT_SUBSETS

/** The families offered in the picker, in order. */
export const FONT_FAMILIES: readonly string[] = WEB_FONTS.map((f) => f.family)

/**
 * The web font a stored `font` value names (case and spaces around it do not matter); an empty
 * value means the default font.
 */
export function webFont(name: string): WebFontFamily | undefined {
  const wanted = (name.trim() || DEFAULT_FONT).toLowerCase()
  return WEB_FONTS.find((f) => f.family.toLowerCase() === wanted)
}

/**
 * Blocks saved before the web fonts name a system font; they still render with it. The generic
 * family behind it follows the font's shape.
 */
const LEGACY_GENERIC: Record<string, string> = {
  georgia: 'serif',
  'times new roman': 'serif',
  'courier new': 'monospace',
}

/** A family name as CSS wants it: quoted, with nothing that could end the quote or the list. */
function quoted(family: string): string {
  return `"${family.replace(/["'\\,;{}]/g, '').trim()}"`
}

/** A system font's list (never empty: a web font or the default takes the empty name). */
function systemStack(name: string): string[] {
  const clean = name.replace(/["'\\,;{}]/g, '').trim()
  const generic = LEGACY_GENERIC[clean.toLowerCase()] ?? 'sans-serif'
  return clean ? [quoted(clean), generic] : [generic]
}

/** The CSS font-family list for a stored `font` value: the web font, then its system fallbacks. */
export function fontStack(name: string): string {
  const web = webFont(name)
  if (!web) return systemStack(name).join(', ')
  return [quoted(web.family), ...web.fallbacks.map(quoted), web.generic].join(', ')
}

/** The same list without the web font: what is drawn while it has not loaded. */
export function fallbackStack(name: string): string {
  const web = webFont(name)
  if (!web) return systemStack(name).join(', ')
  return [...web.fallbacks.map(quoted), web.generic].join(', ')
}

/** One weight of one web family: the unit that is loaded (its Cyrillic and Latin files). */
export interface FontFaceRef {
  family: string
  weight: FontWeight
}

export function faceKey(face: FontFaceRef): string {
  return `${face.family}:${face.weight}`
}

/** The face a `faceKey` names, or null for anything else. */
export function parseFaceKey(key: string): FontFaceRef | null {
  const at = key.lastIndexOf(':')
  const weight = Number(key.slice(at + 1))
  const web = at > 0 ? webFont(key.slice(0, at)) : undefined
  if (!web || !FONT_WEIGHTS.includes(weight as FontWeight)) return null
  return { family: web.family, weight: weight as FontWeight }
}

/**
 * The web font faces the blocks draw with, each once: what each type's definition says it uses
 * (`blocks/<type>.ts` `fonts`). System fonts need nothing loaded and are left out.
 */
export function facesUsedBy(blocks: Iterable<LocalBlock>): FontFaceRef[] {
  const faces = new Map<string, FontFaceRef>()
  for (const block of blocks) {
    for (const use of fontsOf(block)) {
      const web = webFont(use.font)
      if (!web) continue
      const face = { family: web.family, weight: use.weight }
      faces.set(faceKey(face), face)
    }
  }
  return [...faces.values()]
}
