import { readFileSync } from 'node:fs'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import sharp from 'sharp'
import { subsetFont } from '../../server/published/page-fonts.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  json,
  pngImage,
  secondInstance,
  testServer,
  textBlock,
  uploadForm,
  type TestServer,
  type TestUser,
} from './helpers.ts'

/**
 * Published pages (docs/publishing.md, docs/API.md "Published pages"): publish, republish,
 * unpublish, slugs, the public page with its ETag, escaping and CSP, and another workspace.
 */
let s: TestServer
let u: TestUser

type Row = Record<string, unknown> & { id: number }
interface Published {
  slug: string
  url: string
  published_at: string
  changed_since: boolean
}
type ProjectRow = Row & { published: Published | null; slug: string | null; version: number }

beforeAll(async () => {
  s = await testServer()
  u = await s.signUp()
})
afterAll(() => s.close())

async function newProject(name: string, type: 1 | 2 = 1, user = u) {
  const project = await json<ProjectRow>(
    await s.call('POST', '/api/project/add', {
      token: user.token,
      body: { workspace_id: user.workspaceId, name },
    }),
  )
  await s.call('POST', '/api/project/set_type', {
    token: user.token,
    body: { project_id: project.id, type },
  })
  const bg = await json<Row>(
    await s.call('POST', '/api/project/add_bg', {
      token: user.token,
      raw: uploadForm(pngImage(64, 36), { project_id: String(project.id) }),
    }),
  )
  return { project, bg }
}

const saveText = async (bgId: number, text: string, extra: Record<string, unknown> = {}) =>
  json<Row>(
    await s.call('POST', '/api/text/add', {
      token: u.token,
      body: textBlock(bgId, { text, ...extra }),
    }),
  )

const publish = (projectId: number, user = u) =>
  s.call('POST', '/api/project/publish', { token: user.token, body: { project_id: projectId } })

const page = (slug: string, headers: Record<string, string> = {}, method = 'GET') =>
  s.call(method, `/p/${slug}`, { headers })

const getProject = async (id: number) =>
  json<ProjectRow>(
    await s.call('GET', '/api/project/get', { token: u.token, query: { project_id: id } }),
  )

describe('publishing', () => {
  it('publishes a snapshot at a slug made from the name, and the page shows it without sign-in', async () => {
    const { project, bg } = await newProject('Акция на чистку зубов')
    await saveText(bg.id, 'Скидка 20% до конца месяца')
    const res = await publish(project.id)
    expect(res.status).toBe(200)
    const body = await json<Record<string, unknown>>(res)
    expect(body).toMatchObject({
      project_id: project.id,
      slug: 'akciya-na-chistku-zubov',
      published_version: 1,
    })
    expect(String(body.url)).toMatch(/\/p\/akciya-na-chistku-zubov$/)
    expect(Number.isNaN(Date.parse(String(body.published_at)))).toBe(false)

    const html = await page('akciya-na-chistku-zubov')
    expect(html.status).toBe(200)
    expect(html.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
    expect(html.headers.get('Set-Cookie')).toBeNull()
    expect(html.headers.get('Cache-Control')).toMatch(/public, max-age=\d+/)
    const text = await html.text()
    expect(text).toMatch(/^<!doctype html>/)
    expect(text).toContain('<html lang="ru">')
    expect(text).toContain('<title>Акция на чистку зубов</title>')
    expect(text).toContain('Скидка 20% до конца месяца')
    expect(text).toContain('<meta name="description" content="Скидка 20% до конца месяца">')
    expect(text).toContain('property="og:image"')
    expect(text).toContain('<link rel="canonical"')

    const row = await getProject(project.id)
    expect(row.slug).toBe('akciya-na-chistku-zubov')
    expect(row.published).toMatchObject({ slug: 'akciya-na-chistku-zubov', changed_since: false })
  })

  it('an edit after publishing changes nothing public until republished, and says so', async () => {
    const { project, bg } = await newProject('Правка после публикации')
    const block = await saveText(bg.id, 'Первая версия')
    expect((await publish(project.id)).status).toBe(200)
    const slug = (await getProject(project.id)).slug!
    const first = await page(slug)
    const etag = first.headers.get('ETag')!
    expect(etag).toMatch(/^".+"$/)

    await s.call('POST', '/api/text/add', {
      token: u.token,
      body: { ...textBlock(bg.id, { text: 'Вторая версия' }), id: block.id },
    })
    expect((await getProject(project.id)).published?.changed_since).toBe(true)
    const list = await json<ProjectRow[]>(
      await s.call('GET', '/api/project/list', {
        token: u.token,
        query: { workspace_id: u.workspaceId },
      }),
    )
    expect(list.find((p) => p.id === project.id)?.published?.changed_since).toBe(true)
    const still = await page(slug, { 'If-None-Match': etag })
    expect(still.status).toBe(304)
    expect(still.headers.get('ETag')).toBe(etag)
    // The browser stores the 304's headers with its copy: the page's script must stay allowed.
    expect(still.headers.get('Content-Security-Policy')).toBe(
      (await page(slug)).headers.get('Content-Security-Policy'),
    )
    expect(await (await page(slug)).text()).toContain('Первая версия')

    const again = await json<{ published_version: number }>(await publish(project.id))
    expect(again.published_version).toBe(2)
    expect((await getProject(project.id)).published?.changed_since).toBe(false)
    const fresh = await page(slug, { 'If-None-Match': etag })
    expect(fresh.status).toBe(200)
    expect(fresh.headers.get('ETag')).not.toBe(etag)
    const text = await fresh.text()
    expect(text).toContain('Вторая версия')
    expect(text).not.toContain('Первая версия')
  })

  it('unpublish makes the page a 404 in Russian; HEAD answers without a body', async () => {
    const { project, bg } = await newProject('Снятие')
    await saveText(bg.id, 'Текст')
    await publish(project.id)
    const slug = (await getProject(project.id)).slug!
    const head = await page(slug, {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const res = await s.call('POST', '/api/project/unpublish', {
      token: u.token,
      body: { project_id: project.id },
    })
    expect(await json(res)).toEqual({ project_id: project.id, published: false })
    const gone = await page(slug)
    expect(gone.status).toBe(404)
    expect(gone.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
    expect(await gone.text()).toContain('Страница не найдена')
    expect((await getProject(project.id)).published).toBeNull()
    expect((await page('no-such-page-here')).status).toBe(404)
    expect((await page('Bad_Slug')).status).toBe(404)
  })

  it('slugs: set before the first publish, malformed and reserved ones refused, a taken one is 409', async () => {
    const { project } = await newProject('Адрес')
    const set = (slug: unknown, id = project.id) =>
      s.call('POST', '/api/project/set_slug', { token: u.token, body: { project_id: id, slug } })
    for (const bad of [
      'ab',
      '-abc',
      'abc-',
      'a--b',
      'Привет',
      'a'.repeat(61),
      'with space',
      'a_b',
    ]) {
      const res = await set(bad)
      expect(res.status, bad).toBe(422)
      expect(
        (await json<{ error: { fields: Record<string, string> } }>(res)).error.fields.slug,
      ).toBeTruthy()
    }
    for (const reserved of ['api', 'admin', 'uploads']) {
      const res = await set(reserved.padEnd(3, 'x'))
      expect(res.status, reserved).toBe(422)
    }
    const ok = await set('Moya-Stranica')
    expect(ok.status).toBe(200)
    expect(await json(ok)).toMatchObject({ project_id: project.id, slug: 'moya-stranica' })
    expect((await getProject(project.id)).slug).toBe('moya-stranica')
    expect((await getProject(project.id)).published).toBeNull()
    const published = await json<{ slug: string }>(await publish(project.id))
    expect(published.slug).toBe('moya-stranica')

    const other = await newProject('Другой')
    const taken = await set('moya-stranica', other.project.id)
    expect(taken.status).toBe(409)
    const error = (await json<{ error: { code: string; fields: Record<string, string> } }>(taken))
      .error
    expect(error.code).toBe('slug_taken')
    expect(error.fields.slug).toMatch(/занят/)
  })

  it('two projects of one name get different slugs', async () => {
    const a = await newProject('Одинаковое имя')
    const b = await newProject('Одинаковое имя')
    const first = await json<{ slug: string }>(await publish(a.project.id))
    const second = await json<{ slug: string }>(await publish(b.project.id))
    expect(first.slug).toBe('odinakovoe-imya')
    expect(second.slug).toMatch(/^odinakovoe-imya-[a-z0-9]{4}$/)
  })

  it('escapes every text and lets only its own script run', async () => {
    const { project, bg } = await newProject('<script>alert(1)</script>')
    await saveText(bg.id, '<img src=x onerror=alert(1)> и <script>alert(2)</script>')
    await s.call('POST', '/api/button/add', {
      token: u.token,
      body: {
        bg_id: bg.id,
        x: 50,
        y: 50,
        zindex: 1,
        rotation: 0,
        width: 30,
        height: 10,
        btn_type: 'link',
        btn_type_value: 'javascript:alert(3)',
        name: '',
        border_width: 0,
        border_color: '#000000',
        fontSize: 4,
        font: 'Roboto',
        align: 'center',
        color: '#ffffff',
        background: '#228be6',
        text: 'Нажми',
      },
    })
    const { slug } = await json<{ slug: string }>(await publish(project.id))
    const res = await page(slug)
    const text = await res.text()
    expect(text).not.toContain('<img src=x')
    expect(text).not.toContain('<script>alert')
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(text).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>')
    expect(text).not.toContain('javascript:')
    const csp = res.headers.get('Content-Security-Policy')!
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'))!
    expect(scriptSrc).not.toContain('unsafe-inline')
    expect(scriptSrc).not.toContain('unsafe-eval')
    expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/=]+'/)
    // Exactly one inline script, the one the hash allows.
    expect(text.match(/<script>/g)).toHaveLength(1)
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(res.headers.get('Referrer-Policy')).toBe('strict-origin-when-cross-origin')
    // No opener isolation for a page that holds nothing to protect (it would cost every visitor a
    // fresh browser process); the app keeps it.
    expect(res.headers.get('Cross-Origin-Opener-Policy')).toBeNull()
    expect((await s.call('GET', '/api/check_auth')).headers.get('Cross-Origin-Opener-Policy')).toBe(
      'same-origin',
    )
  })

  it('another workspace cannot publish, unpublish or rename the address of a project: 404', async () => {
    const { project } = await newProject('Чужой')
    const stranger = await s.signUp('Посторонний')
    expect((await publish(project.id, stranger)).status).toBe(404)
    for (const path of ['/api/project/unpublish', '/api/project/set_slug']) {
      const res = await s.call('POST', path, {
        token: stranger.token,
        body: { project_id: project.id, slug: 'chuzhoy' },
      })
      expect(res.status, path).toBe(404)
    }
    expect(
      (await s.call('POST', '/api/project/publish', { body: { project_id: project.id } })).status,
    ).toBe(401)
  })

  it('another instance serves the page from the database', async () => {
    const { project, bg } = await newProject('Два экземпляра')
    await saveText(bg.id, 'Видно везде')
    const { slug } = await json<{ slug: string }>(await publish(project.id))
    const other = await secondInstance(s)
    try {
      const res = await other.request(`/p/${slug}`)
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('Видно везде')
    } finally {
      await other.close()
    }
  })

  it('stories are rendered slide by slide with progress marks; every block is in the HTML', async () => {
    const { project, bg } = await newProject('Сторис', 2)
    await saveText(bg.id, 'Слайд один')
    await s.call('POST', '/api/project/add_bg', {
      token: u.token,
      raw: uploadForm(pngImage(36, 64), { project_id: String(project.id) }),
    })
    const { slug } = await json<{ slug: string }>(await publish(project.id))
    const text = await (await page(slug)).text()
    expect(text).toContain('data-stories')
    expect(text.match(/data-mark=""/g)).toHaveLength(2)
    expect(text.match(/<section /g)).toHaveLength(2)
    expect(text).toContain('Слайд один')
  })

  it('forms: every card opens its form, and each answer carries a token and submission id of its own', async () => {
    const { project, bg } = await newProject('Формы')
    const gift = await json<Row>(
      await s.call('POST', '/api/gift/add', {
        token: u.token,
        body: {
          bg_id: bg.id,
          x: 50,
          y: 50,
          zindex: 1,
          rotation: 0,
          color: '#e64980',
          text: 'Чистка в подарок',
          name: '',
          button_url: '',
          button_hook_url: '',
        },
      }),
    )
    expect(gift.id).toBeGreaterThan(0)
    const { slug } = await json<{ slug: string }>(await publish(project.id))
    const read = async (headers: Record<string, string> = {}) => {
      const res = await page(slug, headers)
      const bytes = Buffer.from(await res.arrayBuffer())
      const encoding = res.headers.get('Content-Encoding')
      const text = (
        encoding === 'gzip'
          ? gunzipSync(bytes)
          : encoding === 'br'
            ? brotliDecompressSync(bytes)
            : bytes
      ).toString()
      return { res, text, size: bytes.length }
    }
    const first = await read()
    const second = await read({ 'Accept-Encoding': 'gzip' })
    const third = await read({ 'Accept-Encoding': 'gzip, deflate, br' })
    expect(second.res.headers.get('Content-Encoding')).toBe('gzip')
    expect(third.res.headers.get('Content-Encoding')).toBe('br')
    expect(third.size).toBeLessThan(second.size)
    for (const { text } of [first, second, third]) {
      expect(text).toContain(`href="#form-${gift.id}"`)
      expect(text).toContain(`id="form-${gift.id}"`)
      expect(text).toContain(`action="/p/${slug}/submit"`)
      expect(text).toContain('name="website"')
      expect(text).toContain('Согласен(на) на обработку персональных данных')
      expect(text).not.toContain('__PROMO_')
    }
    const token = (text: string) => /name="form_token" value="([^"]+)"/.exec(text)?.[1]
    const submission = (text: string) => /name="submission_id" value="([^"]+)"/.exec(text)?.[1]
    expect(token(first.text)).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/)
    expect(submission(first.text)).toMatch(new RegExp(`^[A-Za-z0-9_-]{16}-${gift.id}$`))
    expect(submission(first.text)).not.toBe(submission(second.text))
    expect(submission(second.text)).not.toBe(submission(third.text))
    // The stamped fields belong to their form from the end of the page.
    expect(first.text).toContain(`<form id="form-${gift.id}-form"`)
    expect(first.text).toMatch(
      new RegExp(`<input type="hidden" form="form-${gift.id}-form" name="form_token" value="`),
    )
    // The rest of the answers is the same page.
    const strip = (text: string) => text.replace(/value="[^"]*"/g, '').replace(/-${gift.id}"/g, '')
    expect(strip(first.text)).toBe(strip(second.text))
    expect(strip(first.text)).toBe(strip(third.text))

    const privacy = await s.call('GET', `/p/${slug}/privacy`)
    expect(privacy.status).toBe(200)
    expect(await privacy.text()).toContain('152-ФЗ')
  })

  it('offers resized copies of uploaded images in WebP and their own format, made once', async () => {
    const project = await json<ProjectRow>(
      await s.call('POST', '/api/project/add', {
        token: u.token,
        body: { workspace_id: u.workspaceId, name: 'Фото' },
      }),
    )
    const jpeg = await sharp({
      create: { width: 1200, height: 675, channels: 3, background: '#3366aa' },
    })
      .jpeg()
      .toBuffer()
    const bg = await json<Row & { image_url: string }>(
      await s.call('POST', '/api/project/add_bg', {
        token: u.token,
        raw: uploadForm(jpeg, { project_id: String(project.id) }, 'bg.jpg'),
      }),
    )
    const { slug } = await json<{ slug: string }>(await publish(project.id))
    const text = await (await page(slug)).text()
    const stem = bg.image_url.replace('/uploads/', '').replace('.jpg', '')
    expect(text).toContain('<picture>')
    expect(text).toContain(`/uploads/${stem}--w480.webp 480w`)
    expect(text).toContain(`/uploads/${stem}--w960.jpg 960w`)
    expect(text).toContain(`${bg.image_url} 1200w`)
    expect(text).toContain(`imagesrcset="/uploads/${stem}--w480.webp 480w`)
    expect(text).toMatch(/<img[^>]*width="1200"[^>]*height="675"/)

    const variant = await s.call('GET', `/uploads/${stem}--w960.webp`)
    expect(variant.status).toBe(200)
    expect(variant.headers.get('Content-Type')).toBe('image/webp')
    const meta = await sharp(Buffer.from(await variant.arrayBuffer())).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 960, 540])
    // Its own size, as WebP, for the widest screens.
    const own = await sharp(
      Buffer.from(await (await s.call('GET', `/uploads/${stem}--w2048.webp`)).arrayBuffer()),
    ).metadata()
    expect(own.width).toBe(1200)
    expect((await s.call('GET', `/uploads/${stem}--w999.webp`)).status).toBe(404)
    expect((await s.call('GET', `/uploads/nosuchimage1--w480.webp`)).status).toBe(404)
  })

  it('shows an image block by its copies, a PNG’s WebP kept pixel for pixel, lazily after the first section', async () => {
    const { project, bg } = await newProject('Картинки')
    const second = await json<Row>(
      await s.call('POST', '/api/project/add_bg', {
        token: u.token,
        raw: uploadForm(pngImage(64, 36), { project_id: String(project.id) }),
      }),
    )
    // A drawing with hard edges: stripes a lossy copy would blur.
    const drawing = await sharp({
      create: { width: 800, height: 600, channels: 3, background: '#ffffff' },
    })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">' +
              Array.from(
                { length: 40 },
                (_, i) => `<rect x="${i * 20}" y="0" width="10" height="600" fill="#c92a2a"/>`,
              ).join('') +
              '</svg>',
          ),
        },
      ])
      .png()
      .toBuffer()
    const uploaded = await json<{ url: string }>(
      await s.call('POST', '/api/image/upload', { token: u.token, raw: uploadForm(drawing) }),
    )
    const imageBlock = (bgId: number) => ({
      bg_id: bgId,
      x: 0,
      y: 0,
      zindex: 1,
      rotation: 0,
      width: 40,
      height: 30,
      scaleX: 1,
      scaleY: 1,
      name: 'Прайс',
      image_url: uploaded.url,
    })
    for (const bgId of [bg.id, second.id]) {
      const res = await s.call('POST', '/api/image/add', { token: u.token, body: imageBlock(bgId) })
      expect(res.status).toBe(200)
    }
    const { slug } = await json<{ slug: string }>(await publish(project.id))
    const text = await (await page(slug)).text()
    const stem = uploaded.url.replace('/uploads/', '').replace('.png', '')
    const shown = [
      ...text.matchAll(
        /<picture><source type="image\/webp" srcSet="([^"]+)" sizes="([^"]+)"\/><img src="([^"]+)"[^>]*>/g,
      ),
    ].filter((m) => m[3] === uploaded.url)
    expect(shown).toHaveLength(2)
    for (const [tag, webp, sizes] of shown) {
      expect(webp).toContain(`/uploads/${stem}--w480.webp 480w`)
      expect(sizes).toBe('40vw')
      expect(tag).toContain(`srcSet="/uploads/${stem}--w480.png 480w`)
    }
    // The first section's is in the first screen; the second's waits for the visitor.
    expect(shown[0]![0]).not.toContain('loading="lazy"')
    expect(shown[1]![0]).toContain('loading="lazy"')
    const copy = await s.call('GET', `/uploads/${stem}--w480.webp`)
    expect(copy.status).toBe(200)
    const pixels = await sharp(Buffer.from(await copy.arrayBuffer()))
      .removeAlpha()
      .raw()
      .toBuffer()
    const resized = await sharp(drawing).resize({ width: 480 }).removeAlpha().raw().toBuffer()
    expect(pixels.equals(resized)).toBe(true)
  })

  it('links fonts cut to the characters the page shows, served by any instance', async () => {
    const { project, bg } = await newProject('Шрифты')
    await saveText(bg.id, 'Запись открыта', { font: 'Montserrat' })
    const { slug } = await json<{ slug: string }>(await publish(project.id))
    const text = await (await page(slug)).text()
    const urls = [...text.matchAll(/url\((\/p\/[^)]+\.woff2)\)/g)].map((m) => m[1]!)
    expect(urls).toContain(`/p/${slug}/fonts/1/montserrat-cyrillic-400.woff2`)
    // Latin: the space between the words; nothing else of Montserrat.
    expect(urls.filter((u) => u.includes('montserrat'))).toHaveLength(2)
    expect(text).toContain(
      `<link rel="preload" href="/p/${slug}/fonts/1/montserrat-cyrillic-400.woff2"`,
    )
    const other = await secondInstance(s)
    try {
      const res = await other.request(`/p/${slug}/fonts/1/montserrat-cyrillic-400.woff2`)
      expect(res.status).toBe(200)
      expect(res.headers.get('Content-Type')).toBe('font/woff2')
      const bytes = Buffer.from(await res.arrayBuffer())
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('wOF2')
      const whole = readFileSync(
        new URL(
          '../../node_modules/@fontsource/montserrat/files/montserrat-cyrillic-400-normal.woff2',
          import.meta.url,
        ),
      )
      expect(bytes.length).toBeLessThan(whole.length / 2)
      // Without the TrueType hinting programs phones' rasterizers do not run: smaller than the
      // same characters cut with them.
      const hinted = await subsetFont(whole, 'Запись открыта', { targetFormat: 'woff2' })
      expect(bytes.length).toBeLessThan(hinted.length * 0.8)
      // A font is not a document: none of the policies of one weigh on it.
      expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
      for (const name of [
        'Content-Security-Policy',
        'Cross-Origin-Opener-Policy',
        'X-Frame-Options',
      ])
        expect(res.headers.get(name), name).toBeNull()
      expect((await other.request(`/p/${slug}/fonts/2/montserrat-cyrillic-400.woff2`)).status).toBe(
        404,
      )
      expect((await other.request(`/p/${slug}/fonts/1/lora-cyrillic-400.woff2`)).status).toBe(404)
    } finally {
      await other.close()
    }
  })
})
