import * as v from 'valibot'
import { LIMITS, optionalText } from '../validation.ts'
import { blockBase, defineBlockDomain, name, percent, scale } from './fields.ts'

/** Image: an uploaded picture stretched over its box × its scale. */
export const ImageBlock = v.object({
  ...blockBase,
  type: v.literal('image'),
  width: percent,
  height: percent,
  scaleX: scale,
  scaleY: scale,
  name,
  image_url: optionalText(LIMITS.url),
})

export const imageDomain = defineBlockDomain({
  type: 'image',
  schema: ImageBlock,
  endpoints: 'item',
  defaults: { name: '', image_url: '' },
})
