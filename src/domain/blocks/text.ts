import * as v from 'valibot'
import { color, LIMITS, optionalText } from '../validation.ts'
import {
  Align,
  blockBase,
  DEFAULT_FONT,
  defineBlockDomain,
  font,
  fontSize,
  name,
  percent,
} from './fields.ts'

/** Text: a wrapped paragraph as high as its lines, on an optional background colour. */
export const TextBlock = v.object({
  ...blockBase,
  type: v.literal('text'),
  width: percent,
  fontSize,
  font,
  align: Align,
  color,
  text: optionalText(LIMITS.longText),
  background: color,
  name,
})

export const textDomain = defineBlockDomain({
  type: 'text',
  schema: TextBlock,
  endpoints: 'item',
  defaults: {
    font: DEFAULT_FONT,
    align: 'center',
    color: '#212529',
    text: '',
    background: 'transparent',
    name: '',
  },
})
