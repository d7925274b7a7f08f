import { msg } from '@lingui/core/macro'
import { imageDomain } from '../../../domain/blocks/image.ts'
import { boxUnits, heightPercent, MEDIA_HANDLES, placeholder } from './shared.ts'
import type { BlockDefinition } from './types.ts'

/** Image: the picture stretched over its box × its scale; a grey stand-in in the editor until then. */
export const imageBlock: BlockDefinition<'image'> = {
  type: 'image',
  label: msg`Изображение`,
  defaults: (base, bg) => {
    const portrait = bg.height > bg.width
    const width = portrait ? 80 : 40
    return {
      ...base,
      type: 'image',
      ...imageDomain.defaults,
      width,
      height: heightPercent(width, 0.75, bg),
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
    if (!block.image_url) return { w, h, primitives: placeholder(w, h, ctx.labels.image, false) }
    return {
      w,
      h,
      primitives: [
        {
          kind: 'media',
          media: 'image',
          cx: w / 2,
          cy: h / 2,
          w: w * block.scaleX,
          h: h * block.scaleY,
          src: block.image_url,
          alt: block.name,
          placeholder: {
            label: ctx.labels.image,
            failedLabel: ctx.labels.imageFailed,
            dark: false,
          },
        },
      ],
    }
  },
}
