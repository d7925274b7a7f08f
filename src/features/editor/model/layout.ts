import { frameFor, type Rect } from '../../../domain/geometry.ts'
import type { Background } from '../../../domain/project.ts'

/**
 * Where backgrounds sit in the editor's world (px at 100% zoom). Type 1 («Лендинг») stacks its
 * sections vertically, one page wide; type 2 («Сторис») shows one portrait slide at a time.
 */
export type EditorKind = 'landing' | 'stories'

/** World width of a background at 100% zoom: a desktop page, or a phone screen. */
export const FRAME_WIDTH: Record<EditorKind, number> = { landing: 1200, stories: 360 }
/** Space between stacked sections. */
export const SECTION_GAP = 32

export function editorKindOf(type: 1 | 2): EditorKind {
  return type === 1 ? 'landing' : 'stories'
}

/** Frames (world px) of the backgrounds drawn, by id. */
export function layoutFrames(
  backgrounds: readonly Background[],
  kind: EditorKind,
): Map<number, Rect> {
  const width = FRAME_WIDTH[kind]
  const frames = new Map<number, Rect>()
  let top = 0
  for (const bg of backgrounds) {
    const frame = frameFor(bg, width, 0, kind === 'landing' ? top : 0)
    frames.set(bg.id, frame)
    top += frame.height + SECTION_GAP
  }
  return frames
}
