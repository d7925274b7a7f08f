import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { normalizeRuPhone, VisitorRequestInput } from '../../src/domain/visitor-request.ts'

describe('normalizeRuPhone', () => {
  it('takes the common Russian writings', () => {
    for (const input of [
      '8 (912) 345-67-89',
      '+7 912 3456789',
      '+7 (912) 345-67-89',
      '79123456789',
      '89123456789',
      '9123456789',
      ' 8-912-345-67-89 ',
      '+7.912.345.67.89',
    ]) {
      expect(normalizeRuPhone(input), input).toBe('+79123456789')
    }
  })

  it('refuses what is not a Russian number', () => {
    for (const input of [
      '',
      '12345',
      '+1 212 555 0100',
      '+8 912 345 67 89',
      '912-345',
      'abc',
      '7+9123456789',
      '+7 912 345 67 89 0',
    ]) {
      expect(normalizeRuPhone(input), input).toBeNull()
    }
  })
})

describe('VisitorRequestInput', () => {
  const valid = {
    block_id: '12',
    name: ' Анна ',
    phone: '8 (912) 345-67-89',
    consent: 'on',
    form_token: 't',
    submission_id: 'abcdefgh12',
    website: '',
  }

  it('reads a form post: numbers from strings, the phone normalised, names trimmed', () => {
    const out = v.parse(VisitorRequestInput, valid)
    expect(out).toMatchObject({
      block_id: 12,
      name: 'Анна',
      phone: '+79123456789',
      email: '',
      comment: '',
    })
  })

  it('says which fields are wrong, with codes', () => {
    const result = v.safeParse(VisitorRequestInput, {
      ...valid,
      name: '  ',
      phone: '123',
      email: 'not-an-email',
      consent: undefined,
      submission_id: 'x',
    })
    expect(result.success).toBe(false)
    const byField = Object.fromEntries(
      result.issues!.map((i) => [i.path?.map((p) => p.key).join('.'), i.message]),
    )
    expect(byField).toMatchObject({
      name: 'required',
      phone: 'invalid_phone',
      email: 'invalid_email',
      consent: 'consent_required',
      submission_id: 'invalid_value',
    })
  })

  it('never takes a NUL or a lone surrogate', () => {
    expect(v.safeParse(VisitorRequestInput, { ...valid, name: 'А\u0000' }).success).toBe(false)
    expect(v.safeParse(VisitorRequestInput, { ...valid, comment: '\uD800' }).success).toBe(false)
  })
})
