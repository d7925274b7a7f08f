import { describe, expect, it } from 'vitest'
import type { PageSnapshot } from '../../src/domain/publish.ts'
import { loadRenderer } from '../../server/published/renderer.ts'

/**
 * What goes into a published page's own font cuts (docs/publishing.md, "Rendering on the server"):
 * every character its sections show, and nothing of its request forms, which are set in the
 * system's font.
 */
const place = { bg_id: 1, x: 0, y: 0, zindex: 1, rotation: 0 }
const snapshot = {
  project: { id: 1, name: 'Шрифты', type: 1 },
  backgrounds: [{ id: 1, image_url: '', width: 1600, height: 900, position: 1 }],
  specialists: [],
  images: {},
  blocks: [
    {
      ...place,
      id: 10,
      type: 'text',
      width: 40,
      fontSize: 4,
      font: 'Montserrat',
      align: 'center',
      color: '#222222',
      text: 'Запись открыта &amp; <b>',
      background: 'transparent',
      name: '',
    },
    {
      ...place,
      id: 11,
      type: 'gift',
      color: '#e64980',
      text: 'Подарок',
      name: '',
      button_url: '',
      button_hook_url: '',
    },
  ],
} as unknown as PageSnapshot

const renderer = (await loadRenderer('source'))!

const cutOf = (file: string) =>
  renderer
    .renderPage({
      snapshot,
      slug: 'shrifty',
      url: 'http://promo.example/p/shrifty',
      origin: 'http://promo.example',
      fontBase: '/p/shrifty/fonts/1/',
    })
    .fonts?.find((f) => f.file === file)?.text ?? ''

describe('a published page’s font cuts', () => {
  it('hold every character its sections show and none only its forms show', () => {
    const cyrillic = cutOf('montserrat-cyrillic-400.woff2')
    for (const ch of 'ЗаписьоткрытПд') expect(cyrillic, ch).toContain(ch)
    // «Телефон», «политикой конфиденциальности»: the form's, in the system's font.
    expect(cyrillic).not.toContain('ф')
    expect(cyrillic).not.toContain('Т')
    const latin = cutOf('montserrat-latin-400.woff2')
    // The text's own «&», «<» and «>», read from the markup's entities; the space between words.
    for (const ch of ['&', '<', '>', ' ']) expect(latin, ch).toContain(ch)
  })
})
