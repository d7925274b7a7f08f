import { useEffect, useMemo, useSyncExternalStore } from 'react'
import type { LocalBlock } from '../editor-data.ts'
import {
  faceKey,
  facesUsedBy,
  fallbackStack,
  fontStack,
  parseFaceKey,
  webFont,
  type FontWeight,
} from '../model/fonts.ts'
import { FONT_FILES } from './font-files.ts'
import { browserFontEnvironment, FontLoader } from './font-loader.ts'

let shared: FontLoader | null = null

/** The editor's font loader, with every web font face registered with the document. */
export function editorFonts(): FontLoader {
  if (!shared) {
    shared = new FontLoader(browserFontEnvironment(), FONT_FILES)
    shared.register()
  }
  return shared
}

/**
 * Whether `font` can be drawn at `weight` now. Asks for the face once when it is not; the caller
 * re-renders when it has loaded, and at no other time.
 */
export function useFontReady(font: string, weight: FontWeight = 400): boolean {
  const loader = editorFonts()
  const ready = useSyncExternalStore(loader.subscribe, () => loader.isReady(font, weight))
  useEffect(() => {
    const web = webFont(font)
    if (ready || !web) return
    void loader.load({ family: web.family, weight })
  }, [loader, font, weight, ready])
  return ready
}

/**
 * The font-family list for canvas text: the system fallbacks until the web font has loaded, then
 * the full list. The two lists differ, so Pixi's text and metrics caches never mix them up.
 */
export function useCanvasFontFamily(font: string, weight: FontWeight = 400): string {
  const ready = useFontReady(font, weight)
  return ready ? fontStack(font) : fallbackStack(font)
}

/**
 * Loads every face the project's blocks use, whichever background they are on, so the service
 * worker caches the files while the editor is online and the fonts still draw offline later.
 * Faces that failed offline are tried again when the network comes back.
 */
export function useWarmFonts(blocks: { values(): Iterable<LocalBlock> }): void {
  // The blocks change with every edit; the key only when the set of faces does.
  const key = useMemo(() => facesUsedBy(blocks.values()).map(faceKey).sort().join('|'), [blocks])
  useEffect(() => {
    const loader = editorFonts()
    const faces = key.split('|').map(parseFaceKey)
    const warm = () => {
      for (const face of faces) if (face) void loader.load(face)
    }
    warm()
    const online = () => {
      loader.retryFailed()
      warm()
    }
    window.addEventListener('online', online)
    return () => window.removeEventListener('online', online)
  }, [key])
}
