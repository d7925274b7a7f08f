import * as v from 'valibot'
import { color, FieldCode, finiteNumber, LIMITS, optionalText } from '../validation.ts'
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

export const BUTTON_TYPES = ['link', 'target'] as const

/** Button: a link or a jump to another background, on a rounded face. */
export const ButtonBlock = v.object({
  ...blockBase,
  type: v.literal('button'),
  width: percent,
  height: percent,
  btn_type: v.picklist(BUTTON_TYPES, FieldCode.invalidChoice),
  btn_type_value: optionalText(LIMITS.url),
  name,
  border_width: finiteNumber(0, 100),
  border_color: color,
  fontSize,
  font,
  align: Align,
  color,
  background: color,
  text: optionalText(LIMITS.shortText),
})

export const buttonDomain = defineBlockDomain({
  type: 'button',
  schema: ButtonBlock,
  endpoints: 'item',
  defaults: {
    btn_type: 'link',
    btn_type_value: '',
    name: '',
    border_width: 0,
    border_color: '#1c7ed6',
    font: DEFAULT_FONT,
    align: 'center',
    color: '#ffffff',
    background: '#228be6',
    text: '',
  },
})
