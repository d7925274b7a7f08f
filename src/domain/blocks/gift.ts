import * as v from 'valibot'
import { color, LIMITS, optionalText, optionalWebUrl } from '../validation.ts'
import {
  blockBase,
  defineBlockDomain,
  name,
  NO_REQUEST_FIELDS,
  percent,
  storedString,
} from './fields.ts'

/** Gift: a card whose button opens a request form, or a link (`button_url`). */
export const GiftBlock = v.object({
  ...blockBase,
  type: v.literal('gift'),
  width: v.optional(percent),
  color,
  text: optionalText(LIMITS.shortText),
  name,
  button_url: optionalWebUrl,
  button_hook_url: optionalWebUrl,
})

export const giftDomain = defineBlockDomain({
  type: 'gift',
  schema: GiftBlock,
  endpoints: 'widget',
  request: (block) => ({ ...NO_REQUEST_FIELDS, hook_url: storedString(block, 'button_hook_url') }),
  defaults: { color: '#e64980', text: '', name: '', button_url: '', button_hook_url: '' },
})
