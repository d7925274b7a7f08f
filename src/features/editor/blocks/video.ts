import { msg } from '@lingui/core/macro'
import { videoDomain } from '../../../domain/blocks/video.ts'
import { boxUnits, heightPercent, MEDIA_HANDLES, placeholder } from './shared.ts'
import type { BlockDefinition, PlayPrimitive } from './types.ts'

/**
 * Video: a still of the clip stretched over its box × its scale, with a play sign in the middle; the
 * preview plays the clip when the sign is pressed. A dark stand-in in the editor without a clip.
 */
export const videoBlock: BlockDefinition<'video'> = {
  type: 'video',
  label: msg`Видео`,
  defaults: (base, bg) => {
    const portrait = bg.height > bg.width
    const width = portrait ? 90 : 60
    return {
      ...base,
      type: 'video',
      ...videoDomain.defaults,
      width,
      height: heightPercent(width, 9 / 16, bg),
      scaleX: 1,
      scaleY: 1,
    }
  },
  storedHeight: true,
  handles: MEDIA_HANDLES,
  // Size and scale have their own section (the proportions switch goes with them).
  content: [
    {
      kind: 'text',
      field: 'name',
      label: msg`Название`,
      description: msg`Видно только в редакторе`,
    },
  ],
  style: [],
  fonts: () => [],
  appearance: (block, ctx) => {
    const { w, h } = boxUnits(block.width, block.height, ctx.bgHeight)
    const source = block.video_src || block.video_url
    const play: PlayPrimitive = {
      kind: 'play',
      cx: w / 2,
      cy: h / 2,
      r: Math.min(w, h) * 0.14,
      disc: { color: '#000000', alpha: 0.55 },
      sign: '#ffffff',
    }
    if (!source)
      return {
        w,
        h,
        primitives: [...placeholder(w, h, ctx.labels.video, true), { ...play, editorOnly: true }],
      }
    return {
      w,
      h,
      primitives: [
        {
          kind: 'media',
          media: 'video',
          cx: w / 2,
          cy: h / 2,
          w: w * block.scaleX,
          h: h * block.scaleY,
          src: source,
          alt: block.name,
          placeholder: { label: ctx.labels.video, failedLabel: ctx.labels.video, dark: true },
        },
        play,
      ],
    }
  },
}
