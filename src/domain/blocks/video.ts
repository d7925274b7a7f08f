import * as v from 'valibot'
import { LIMITS, optionalText, optionalWebUrl } from '../validation.ts'
import { blockBase, defineBlockDomain, name, percent, scale } from './fields.ts'

/** Video: a clip by its link (`video_url`) or an uploaded file (`video_src`, which wins). */
export const VideoBlock = v.object({
  ...blockBase,
  type: v.literal('video'),
  width: percent,
  height: percent,
  scaleX: scale,
  scaleY: scale,
  video_url: optionalWebUrl,
  video_src: optionalText(LIMITS.url),
  name,
})

export const videoDomain = defineBlockDomain({
  type: 'video',
  schema: VideoBlock,
  endpoints: 'item',
  defaults: { video_url: '', video_src: '', name: '' },
})
