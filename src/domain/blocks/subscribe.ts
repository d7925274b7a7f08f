import * as v from 'valibot'
import { FieldCode, Id, LIMITS, optionalText, storableString } from '../validation.ts'
import { blockBase, defineBlockDomain, NO_REQUEST_FIELDS, percent, storedString } from './fields.ts'

/** Subscribe: a card that books a visit to a specialist on a date. */
export const SubscribeBlock = v.object({
  ...blockBase,
  type: v.literal('subscribe'),
  width: v.optional(percent),
  specialist_id: v.nullable(Id),
  /** ISO date (YYYY-MM-DD) or empty. */
  date: v.pipe(
    storableString(FieldCode.invalidDate),
    v.check((s) => s === '' || /^\d{4}-\d{2}-\d{2}/.test(s), FieldCode.invalidDate),
  ),
  action: optionalText(LIMITS.name),
})

export const subscribeDomain = defineBlockDomain({
  type: 'subscribe',
  schema: SubscribeBlock,
  endpoints: 'widget',
  request: (block) => ({
    ...NO_REQUEST_FIELDS,
    specialist_id: typeof block.specialist_id === 'number' ? block.specialist_id : null,
    date: storedString(block, 'date'),
  }),
  defaults: { specialist_id: null, date: '', action: '' },
  references: { specialist_id: 'specialist' },
})
