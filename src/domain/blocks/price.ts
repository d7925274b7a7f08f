import * as v from 'valibot'
import { parsePrice } from '../price.ts'
import { color, finiteNumber, LIMITS, optionalText } from '../validation.ts'
import { blockBase, defineBlockDomain, NO_REQUEST_FIELDS, percent } from './fields.ts'

/** Price: a card with a price and a button that opens a request form. */
export const PriceBlock = v.object({
  ...blockBase,
  type: v.literal('price'),
  width: v.optional(percent),
  color,
  text: optionalText(LIMITS.name),
  text_price: v.nullable(finiteNumber(0, 1e12)),
  button_text: optionalText(LIMITS.name),
})

export const priceDomain = defineBlockDomain({
  type: 'price',
  schema: PriceBlock,
  endpoints: 'widget',
  request: (block) => ({
    ...NO_REQUEST_FIELDS,
    price: typeof block.text_price === 'number' ? block.text_price : null,
  }),
  defaults: { color: '#2b8a3e', text: '', text_price: null, button_text: '' },
  // text_price is the number in the text (docs/API.md "Blocks"): derived when the client leaves
  // it out.
  derive: (merged, body) => {
    if (!('text_price' in body)) {
      merged.text_price = typeof merged.text === 'string' ? parsePrice(merged.text) : null
    }
  },
})
