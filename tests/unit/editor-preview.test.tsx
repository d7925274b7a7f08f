import { I18nProvider } from '@lingui/react'
import { MantineProvider } from '@mantine/core'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import type { Background } from '../../src/domain/project.ts'
import type { LocalBlock } from '../../src/features/editor/editor-data.ts'
import { buttonRadiusUnits, defaultBlock } from '../../src/features/editor/model/block-shape.ts'
import type { EditorKind } from '../../src/features/editor/model/layout.ts'
import { ProjectPreview } from '../../src/features/editor/preview/project-preview.tsx'
import { fakeEditorData } from './helpers/editor-data.ts'
import { installBrowserStubs } from './helpers/render-app.tsx'

const texts = {
  text: 'Текст',
  button: 'Кнопка',
  gift: 'Подарок',
  priceButton: 'Купить',
  subscribeAction: 'Записаться',
}

beforeEach(() => {
  installBrowserStubs()
  act(() => i18n.activate('ru'))
})
afterEach(() => {
  document.body.innerHTML = ''
})

const bg = (id: number, position: number, width: number, height: number): Background => ({
  id,
  project_id: 1,
  image_url: `bg-${id}.jpg`,
  width,
  height,
  position,
})

function text(bgId: number, value: string, size: { width: number; height: number }): LocalBlock {
  return { ...defaultBlock('text', bgId, size, 0, texts), text: value } as LocalBlock
}

function setup(kind: EditorKind, backgrounds: Background[], blocks: LocalBlock[]) {
  const data = fakeEditorData({
    backgrounds,
    blocks,
    specialists: [
      {
        id: 5,
        workspace_id: 1,
        name: 'Иванова Анна',
        position: '',
        department_id: null,
        location_id: null,
        phone: '',
        email: '',
        photo_url: '',
        description: '',
        enabled: true,
      },
    ],
  })
  data.resolveFileUrl = (url) => (url.startsWith('local-file:') ? `blob:${url}` : url)
  const closed = vi.fn()
  function Harness() {
    const [opened, setOpened] = useState(true)
    return (
      <ProjectPreview
        opened={opened}
        onClose={() => {
          closed()
          setOpened(false)
        }}
        kind={kind}
        backgrounds={data.backgrounds}
        blocks={data.blocks}
        specialists={data.specialists}
        resolveFileUrl={data.resolveFileUrl}
      />
    )
  }
  render(
    <MantineProvider>
      <I18nProvider i18n={i18n}>
        <Harness />
      </I18nProvider>
    </MantineProvider>,
  )
  return { closed }
}

describe('landing preview', () => {
  const WIDE = { width: 1600, height: 900 }
  const backgrounds = [bg(10, 0, 1600, 900), bg(11, 1, 1600, 1200)]

  it('draws text in its web font with system fonts behind it, and keeps an old system font', () => {
    const serif = { ...text(10, 'Сезонное предложение', WIDE), font: 'PT Serif' } as LocalBlock
    const legacy = { ...text(10, 'Старый блок', WIDE), font: 'Tahoma' } as LocalBlock
    setup('landing', [backgrounds[0]!], [serif, legacy])
    expect(screen.getByText('Сезонное предложение').style.fontFamily).toBe(
      '"PT Serif", "Georgia", "Times New Roman", serif',
    )
    expect(screen.getByText('Старый блок').style.fontFamily).toBe('"Tahoma", sans-serif')
  })

  it('shows every section with its image and its own blocks', () => {
    const button = {
      ...defaultBlock('button', 11, WIDE, 1, texts),
      text: 'На сайт',
      btn_type: 'link',
      btn_type_value: 'https://example.ru/',
    } as LocalBlock
    const video = {
      ...defaultBlock('video', 11, WIDE, 2, texts),
      video_src: 'local-file:3',
    } as LocalBlock
    const gift = {
      ...defaultBlock('gift', 10, WIDE, 3, texts),
      text: 'Скидка 10%',
      button_url: 'https://gift.example.ru/',
    } as LocalBlock
    const subscribe = {
      ...defaultBlock('subscribe', 11, WIDE, 4, texts),
      specialist_id: 5,
    } as LocalBlock
    const price = {
      ...defaultBlock('price', 10, WIDE, 5, texts),
      text_price: 2500,
    } as LocalBlock
    setup('landing', backgrounds, [
      text(10, 'Первая секция', WIDE),
      text(11, 'Вторая секция', WIDE),
      button,
      video,
      gift,
      subscribe,
      price,
    ])
    const dialog = screen.getByRole('dialog')
    expect(within(dialog).getByText('Предпросмотр')).toBeInTheDocument()
    const first = within(dialog).getByRole('region', { name: 'Секция 1' })
    const second = within(dialog).getByRole('region', { name: 'Секция 2' })
    expect(first.querySelector('img')).toHaveAttribute('src', 'bg-10.jpg')
    expect(second.querySelector('img')).toHaveAttribute('src', 'bg-11.jpg')
    expect(second.style.aspectRatio).toBe('1600 / 1200')

    expect(within(first).getByText('Первая секция')).toBeInTheDocument()
    expect(within(first).queryByText('Вторая секция')).toBeNull()
    expect(within(first).getByRole('link', { name: 'Получить подарок' })).toHaveAttribute(
      'href',
      'https://gift.example.ru/',
    )
    expect(within(first).getByText('Скидка 10%')).toBeInTheDocument()
    expect(within(first).getByText(/2\s500\s₽/)).toBeInTheDocument()
    expect(within(first).getByRole('button', { name: 'Купить' })).toBeInTheDocument()

    expect(within(second).getByRole('link', { name: 'На сайт' })).toHaveAttribute(
      'href',
      'https://example.ru/',
    )
    expect(second.querySelector('video')).toHaveAttribute('src', 'blob:local-file:3')
    // The still with the play sign, as the canvas draws it; the sign plays it with the controls.
    expect(second.querySelector('video')).not.toHaveAttribute('controls')
    fireEvent.click(within(second).getByRole('button', { name: 'Смотреть видео' }))
    expect(second.querySelector('video')).toHaveAttribute('controls')
    expect(within(second).queryByRole('button', { name: 'Смотреть видео' })).toBeNull()
    expect(within(second).getByText('Иванова Анна')).toBeInTheDocument()
    expect(within(second).getByRole('button', { name: 'Записаться' })).toBeInTheDocument()
  })

  it('places a block by its centre in percentages and orders by zindex', () => {
    const moved = { ...text(10, 'Сдвинут', WIDE), x: 50, y: -28.125, rotation: 30, zindex: 3 }
    setup('landing', [backgrounds[0]!], [moved])
    const box = screen.getByText('Сдвинут').parentElement!
    // Its centre at 75% × 25%: half its width (50%) to the left, and the zero-height band its auto
    // margins centre it on (laid out, not moved by a transform, which would be painted up to half
    // a pixel off).
    expect(box.style.left).toBe('50%')
    expect(box.style.width).toBe('50%')
    expect(box.style.top).toBe('25%')
    expect(box.style.bottom).toBe('75%')
    expect(box.style.marginTop).toBe('auto')
    expect(box.style.marginBottom).toBe('auto')
    expect(box.style.transform).toBe('rotate(30deg)')
    expect(box.style.zIndex).toBe('3')
  })

  it('a target button scrolls to its section', () => {
    const jump = {
      ...defaultBlock('button', 10, WIDE, 1, texts),
      text: 'Ниже',
      btn_type: 'target',
      btn_type_value: '11',
    } as LocalBlock
    const scrolled: Element[] = []
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this)
    }
    setup('landing', backgrounds, [jump])
    fireEvent.click(screen.getByRole('link', { name: 'Ниже' }))
    expect(scrolled).toEqual([screen.getByRole('region', { name: 'Секция 2' })])
  })

  it('draws a button with the canvas’s corners and border, and a subscribe card’s default action', () => {
    const button = {
      ...defaultBlock('button', 10, WIDE, 1, texts),
      text: 'Круглая',
      height: 10,
      border_width: 2,
    } as LocalBlock
    const card = { ...defaultBlock('subscribe', 10, WIDE, 2, texts), action: '' } as LocalBlock
    setup('landing', [backgrounds[0]!], [button, card])
    const link = screen.getByText('Круглая').closest('a')!
    // 10 % of a 16:9 background's height is 11.25 units: a pill, radius 5.625 units = 2.8125 cqw.
    expect(link.style.borderRadius).toBe('2.8125cqw')
    expect(link.style.border).toContain('1cqw')
    expect(buttonRadiusUnits(11.25)).toBe(5.625)
    expect(buttonRadiusUnits(40)).toBe(8)
    expect(screen.getByRole('button', { name: 'Записаться' })).toBeInTheDocument()
  })

  it('does not make a link of an unsafe URL', () => {
    const bad = {
      ...defaultBlock('button', 10, WIDE, 1, texts),
      text: 'Опасно',
      btn_type: 'link',
      btn_type_value: 'javascript:alert(1)',
    } as LocalBlock
    setup('landing', [backgrounds[0]!], [bad])
    expect(screen.getByText('Опасно').closest('a')).not.toHaveAttribute('href')
  })

  it('closes with Escape', () => {
    const { closed } = setup('landing', backgrounds, [])
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' })
    expect(closed).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('stories preview', () => {
  const TALL = { width: 900, height: 1600 }
  const slides = [bg(20, 0, 900, 1600), bg(21, 1, 900, 1600), bg(22, 2, 900, 1600)]
  const blocks = [
    text(20, 'Слайд один', TALL),
    text(21, 'Слайд два', TALL),
    text(22, 'Слайд три', TALL),
  ]

  it('shows one slide at a time and moves with the arrow keys', () => {
    setup('stories', slides, blocks)
    expect(screen.getByText('Слайд один')).toBeInTheDocument()
    expect(screen.queryByText('Слайд два')).toBeNull()
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '1')

    fireEvent.keyDown(window, { key: 'ArrowRight' })
    expect(screen.getByText('Слайд два')).toBeInTheDocument()
    expect(screen.queryByText('Слайд один')).toBeNull()
    expect(screen.getByRole('progressbar', { name: 'Слайд 2 из 3' })).toBeInTheDocument()

    fireEvent.keyDown(window, { key: 'ArrowRight' })
    fireEvent.keyDown(window, { key: 'ArrowRight' })
    // The last slide stays put.
    expect(screen.getByText('Слайд три')).toBeInTheDocument()

    fireEvent.keyDown(window, { key: 'ArrowLeft' })
    expect(screen.getByText('Слайд два')).toBeInTheDocument()
  })

  it('moves with taps on the halves and with swipes', () => {
    setup('stories', slides, blocks)
    const frame = screen.getByTestId('stories-preview')
    frame.getBoundingClientRect = () =>
      ({ left: 0, top: 0, width: 360, height: 640, right: 360, bottom: 640 }) as DOMRect
    const tap = (x: number) => {
      fireEvent.pointerDown(frame, { clientX: x, clientY: 300 })
      fireEvent.pointerUp(frame, { clientX: x, clientY: 300 })
    }
    tap(300)
    expect(screen.getByText('Слайд два')).toBeInTheDocument()
    tap(40)
    expect(screen.getByText('Слайд один')).toBeInTheDocument()
    fireEvent.pointerDown(frame, { clientX: 300, clientY: 300 })
    fireEvent.pointerUp(frame, { clientX: 100, clientY: 310 })
    expect(screen.getByText('Слайд два')).toBeInTheDocument()
    fireEvent.pointerDown(frame, { clientX: 100, clientY: 300 })
    fireEvent.pointerUp(frame, { clientX: 300, clientY: 300 })
    expect(screen.getByText('Слайд один')).toBeInTheDocument()
  })

  it('a target button goes to its slide', () => {
    const jump = {
      ...defaultBlock('button', 20, TALL, 1, texts),
      text: 'К записи',
      btn_type: 'target',
      btn_type_value: '22',
    } as LocalBlock
    setup('stories', slides, [...blocks, jump])
    const link = screen.getByRole('link', { name: 'К записи' })
    expect(link).toHaveAttribute('href', '#bg-22')
    fireEvent.click(link)
    expect(screen.getByText('Слайд три')).toBeInTheDocument()
  })

  it('closes with Escape', () => {
    const { closed } = setup('stories', slides, blocks)
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' })
    expect(closed).toHaveBeenCalledTimes(1)
  })
})
