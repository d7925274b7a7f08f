// @vitest-environment node
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isMasked, MASK, maskSecret, maskWebhookUrl } from '../../src/domain/integration.ts'

const token = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split('')),
  minLength: 8,
  maxLength: 40,
})

describe('masking secrets for display', () => {
  it('a short secret shows nothing of itself, a long one only its last four characters', () => {
    expect(maskSecret('abcde')).toBe(MASK)
    expect(maskSecret('abcdefghijk')).toBe(MASK)
    expect(maskSecret('abcdefghijkl')).toBe(`${MASK}ijkl`)
  })

  it('masks the token of every shape of Bitrix24 webhook', () => {
    expect(maskWebhookUrl('https://a.bitrix24.ru/rest/1/abcdefghijklmnop/')).toBe(
      `https://a.bitrix24.ru/rest/1/${MASK}mnop/`,
    )
    expect(maskWebhookUrl('https://a.bitrix24.ru/rest/admin/secrettok1/')).toBe(
      `https://a.bitrix24.ru/rest/admin/${MASK}/`,
    )
    expect(maskWebhookUrl('https://a.bitrix24.ru/REST/1/secrettok1/profile.json')).toBe(
      `https://a.bitrix24.ru/REST/1/${MASK}/${MASK}json`,
    )
    expect(maskWebhookUrl('https://a.bitrix24.ru/rest/?auth=secrettok1&x=2')).toBe(
      `https://a.bitrix24.ru/rest/?auth=${MASK}&x=${MASK}`,
    )
    expect(maskWebhookUrl('not a url secrettok1')).toBe(MASK)
    expect(isMasked(maskWebhookUrl('https://a.bitrix24.ru/rest/1/secrettok1/'))).toBe(true)
  })

  it('never shows a whole token, wherever it sits in the URL', () => {
    fc.assert(
      fc.property(
        token,
        fc.constantFrom('1', '42', 'admin', 'Admin'),
        fc.constantFrom('rest', 'REST', 'Rest'),
        fc.constantFrom('path', 'query', 'both'),
        (secret, user, rest, where) => {
          const path = where === 'query' ? `/${rest}/` : `/${rest}/${user}/${secret}/`
          const query = where === 'path' ? '' : `?auth=${secret}`
          const masked = maskWebhookUrl(`https://portal.bitrix24.ru${path}${query}`)
          expect(masked).not.toContain(secret)
          expect(maskSecret(secret)).not.toContain(secret)
        },
      ),
      { seed: 20261124, numRuns: 500 },
    )
  })
})
