import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Submission } from '../../server/published/submission.ts'
import {
  json,
  pngImage,
  testServer,
  uploadForm,
  type TestServer,
  type TestUser,
} from './helpers.ts'

/**
 * The submit route of a published page's forms (docs/requests.md): what it takes, refuses and
 * marks as spam, and what it hands on. Its sink here records what it is given (the store and the
 * CRM deliveries behind it have tests of their own).
 */
let s: TestServer
let u: TestUser
let clock = Date.now()
const received: Submission[] = []
let slug = ''
let giftId = 0
let priceId = 0
let textId = 0

beforeAll(async () => {
  s = await testServer({
    now: () => clock,
    requestLimits: { perAddress: 6, perPage: 1000 },
    requestSink: {
      async submit(submission) {
        received.push(submission)
        return { id: received.length, created: true }
      },
    },
  })
  u = await s.signUp()
  const project = await json<{ id: number }>(
    await s.call('POST', '/api/project/add', {
      token: u.token,
      body: { workspace_id: u.workspaceId, name: 'Заявки' },
    }),
  )
  await s.call('POST', '/api/project/set_type', {
    token: u.token,
    body: { project_id: project.id, type: 1 },
  })
  const bg = await json<{ id: number }>(
    await s.call('POST', '/api/project/add_bg', {
      token: u.token,
      raw: uploadForm(pngImage(64, 36), { project_id: String(project.id) }),
    }),
  )
  const place = { bg_id: bg.id, x: 50, y: 50, zindex: 1, rotation: 0 }
  giftId = (
    await json<{ id: number }>(
      await s.call('POST', '/api/gift/add', {
        token: u.token,
        body: {
          ...place,
          color: '#e64980',
          text: 'Чистка зубов',
          name: '',
          button_url: 'https://example.ru/gift',
          button_hook_url: '',
        },
      }),
    )
  ).id
  priceId = (
    await json<{ id: number }>(
      await s.call('POST', '/api/price/add', {
        token: u.token,
        body: { ...place, color: '#2b8a3e', text: 'Чек-ап', text_price: 4900, button_text: '' },
      }),
    )
  ).id
  textId = (
    await json<{ id: number }>(
      await s.call('POST', '/api/text/add', {
        token: u.token,
        body: {
          ...place,
          width: 40,
          fontSize: 5,
          font: 'Roboto',
          align: 'center',
          color: '#000000',
          text: 'Текст',
          background: '',
          name: '',
        },
      }),
    )
  ).id
  slug = (
    await json<{ slug: string }>(
      await s.call('POST', '/api/project/publish', {
        token: u.token,
        body: { project_id: project.id },
      }),
    )
  ).slug
})
afterAll(() => s.close())

/** A fresh form as a visitor's page has it: its token and submission id. */
async function openForm() {
  const text = await (await s.call('GET', `/p/${slug}`)).text()
  const token = /name="form_token" value="([^"]+)"/.exec(text)![1]!
  const id = /name="submission_id" value="([^"]+)"/.exec(text)![1]!
  return { token, id }
}

const sendJson = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  s.call('POST', `/p/${slug}/submit`, { body, headers })

const sendForm = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  s.call('POST', `/p/${slug}/submit`, {
    raw: new URLSearchParams(fields).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  })

/** Each test from its own address, so the per-address limit is its own. */
let addressCounter = 0
const from = () => ({ 'X-Forwarded-For': `10.0.0.${++addressCounter}` })

describe('the submit route', () => {
  it('takes a JSON request sent a few seconds after the form was served', async () => {
    const form = await openForm()
    clock += 5_000
    const res = await sendJson({
      block_id: priceId,
      name: ' Анна ',
      phone: '8 (912) 345-67-89',
      consent: true,
      form_token: form.token,
      submission_id: form.id,
      website: '',
      utm_source: 'vk',
      utm_campaign: 'spring',
      referrer: 'https://vk.com/',
    })
    expect(res.status).toBe(201)
    expect(await json(res)).toEqual({ id: received.length, status: 'accepted' })
    expect(received.at(-1)).toMatchObject({
      kind: 'price',
      block_id: priceId,
      name: 'Анна',
      phone: '+79123456789',
      price: 4900,
      spam: false,
      utm: { utm_source: 'vk', utm_campaign: 'spring' },
      referrer: 'https://vk.com/',
      submission_id: form.id,
      project_name: 'Заявки',
    })
    expect(received.at(-1)!.page_url).toMatch(new RegExp(`/p/${slug}$`))
  })

  it('a form sent within 3 s, or with the hidden field filled, is kept as spam', async () => {
    const fast = await openForm()
    clock += 1_000
    const base = { block_id: giftId, name: 'Бот', phone: '+79123456789', consent: 'on' }
    expect(
      (await sendJson({ ...base, form_token: fast.token, submission_id: fast.id, website: '' }))
        .status,
    ).toBe(201)
    expect(received.at(-1)!.spam).toBe(true)
    const trap = await openForm()
    clock += 10_000
    const res = await sendJson({
      ...base,
      form_token: trap.token,
      submission_id: trap.id,
      website: 'http://spam.example',
    })
    expect(res.status).toBe(201)
    expect(received.at(-1)!.spam).toBe(true)
  })

  it('a forged or day-old token is refused and nothing is handed on', async () => {
    const before = received.length
    const form = await openForm()
    const forged = await sendJson({
      block_id: giftId,
      name: 'Анна',
      phone: '+79123456789',
      consent: true,
      form_token: form.token.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A')),
      submission_id: form.id,
      website: '',
    })
    expect(forged.status).toBe(422)
    clock += 25 * 3600_000
    const stale = await sendJson({
      block_id: giftId,
      name: 'Анна',
      phone: '+79123456789',
      consent: true,
      form_token: form.token,
      submission_id: form.id,
      website: '',
    })
    expect(stale.status).toBe(422)
    expect(
      (await json<{ error: { fields: Record<string, string> } }>(stale)).error.fields._,
    ).toMatch(/открыта слишком долго/)
    expect(received.length).toBe(before)
  })

  it('bad input is a 422 that names each field in Russian', async () => {
    const form = await openForm()
    clock += 5_000
    const res = await sendJson({
      block_id: giftId,
      name: '',
      phone: '123',
      form_token: form.token,
      submission_id: form.id,
      website: '',
    })
    expect(res.status).toBe(422)
    const { error } = await json<{ error: { code: string; fields: Record<string, string> } }>(res)
    expect(error.code).toBe('validation_error')
    expect(error.fields).toMatchObject({
      name: 'Обязательное поле',
      phone: 'Неверный номер телефона',
      consent: 'Нужно согласие на обработку персональных данных',
    })
    const notAForm = await sendJson({
      block_id: textId,
      name: 'Анна',
      phone: '+79123456789',
      consent: true,
      form_token: form.token,
      submission_id: form.id,
      website: '',
    })
    expect(notAForm.status).toBe(422)
  })

  it('works without JavaScript: a form post is answered with a thank-you page, or the form again with its errors', async () => {
    const form = await openForm()
    clock += 5_000
    const fields = {
      block_id: String(giftId),
      name: 'Мария',
      phone: '+7 912 3456789',
      consent: 'on',
      form_token: form.token,
      submission_id: form.id,
      website: '',
    }
    const bad = await sendForm({ ...fields, phone: 'нет' }, from())
    expect(bad.status).toBe(422)
    expect(bad.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
    const page = await bad.text()
    expect(page).toContain('Неверный номер телефона')
    expect(page).toContain('value="Мария"')
    expect(page).toMatch(/name="form_token" value="\d+\.[A-Za-z0-9_-]{43}"/)

    const ok = await sendForm(fields, { ...from(), Referer: `http://x/p/${slug}?utm_source=qr` })
    expect(ok.status).toBe(303)
    const location = ok.headers.get('Location')!
    expect(location).toBe(`/p/${slug}/thanks?block=${giftId}`)
    expect(received.at(-1)).toMatchObject({
      kind: 'gift',
      phone: '+79123456789',
      utm: { utm_source: 'qr' },
    })
    const thanks = await (await s.call('GET', location)).text()
    expect(thanks).toContain('Ваш подарок: Чистка зубов')
    expect(thanks).toContain('href="https://example.ru/gift"')
  })

  it('one address may send only so many: a friendly 429', async () => {
    const address = from()
    let last: Response | null = null
    for (let i = 0; i < 7; i++) {
      const form = await openForm()
      clock += 5_000
      last = await sendJson(
        {
          block_id: giftId,
          name: 'Анна',
          phone: '+79123456789',
          consent: true,
          form_token: form.token,
          submission_id: `${form.id}x${i}`,
          website: '',
        },
        address,
      )
    }
    expect(last!.status).toBe(429)
    expect(Number(last!.headers.get('Retry-After'))).toBeGreaterThan(0)
    const form = await openForm()
    clock += 5_000
    const page = await sendForm(
      {
        block_id: String(giftId),
        name: 'Анна',
        phone: '+79123456789',
        consent: 'on',
        form_token: form.token,
        submission_id: form.id,
        website: '',
      },
      address,
    )
    expect(page.status).toBe(429)
    expect(await page.text()).toContain('Слишком много заявок')
  })

  it('an unknown page is a 404', async () => {
    expect((await s.call('POST', '/p/no-such-page/submit', { body: {} })).status).toBe(404)
  })
})
