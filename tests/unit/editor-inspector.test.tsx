import { I18nProvider } from '@lingui/react'
import { MantineProvider } from '@mantine/core'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import type { OutboxEntry } from '../../src/data/entries.ts'
import type { BlockOf, BlockType } from '../../src/domain/block.ts'
import type { Specialist } from '../../src/domain/directory.ts'
import type { LocalBlock } from '../../src/features/editor/editor-data.ts'
import { BlockInspector } from '../../src/features/editor/inspector/block-inspector.tsx'
import { defaultBlock } from '../../src/features/editor/model/block-shape.ts'
import { FONT_FAMILIES } from '../../src/features/editor/model/fonts.ts'
import { installBrowserStubs } from './helpers/render-app.tsx'

const BG = { id: 10, project_id: 1, image_url: '', width: 1600, height: 900, position: 0 }
const texts = {
  text: 'Новый текст',
  button: 'Кнопка',
  gift: 'Подарок',
  priceButton: 'Купить',
  subscribeAction: 'Записаться',
}
const specialists: Specialist[] = [
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
  {
    ...({} as Specialist),
    id: 6,
    workspace_id: 1,
    name: 'Петров Пётр',
    enabled: false,
  } as Specialist,
]

beforeEach(() => {
  installBrowserStubs()
  // jsdom has no FontFaceSet; Mantine's autosizing textarea listens to it.
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => undefined, removeEventListener: () => undefined },
    })
  act(() => i18n.activate('ru'))
})
afterEach(() => {
  document.body.innerHTML = ''
})

/** The inspector over a block held in state, as the editor store would hold it. */
function setup(type: BlockType, patch: Partial<LocalBlock> = {}) {
  const onChange = vi.fn<(patch: Record<string, unknown>, tag: string) => void>()
  const uploadFile = vi.fn(async () => 'local-file:1')
  let current: LocalBlock = { ...defaultBlock(type, BG.id, BG, 0, texts), ...patch } as LocalBlock
  function Harness() {
    const [block, setBlock] = useState(current)
    return (
      <BlockInspector
        block={block}
        background={BG}
        backgrounds={[BG, { ...BG, id: 11, position: 1 }]}
        specialists={specialists}
        uploadFile={uploadFile}
        resolveFileUrl={(url) => url}
        onChange={(p, tag) => {
          onChange(p, tag)
          current = { ...current, ...p } as LocalBlock
          setBlock(current)
        }}
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
  return { onChange, uploadFile, user: userEvent.setup(), block: () => current }
}

const field = (label: string | RegExp) =>
  screen.getByLabelText(label, { selector: 'input, textarea, select' })

describe('text block inspector', () => {
  it('has every field of the text block', () => {
    setup('text')
    for (const label of ['Текст', 'Название', 'Ширина', 'Размер шрифта', 'Шрифт', 'Цвет текста'])
      expect(field(label)).toBeInTheDocument()
    expect(screen.getByText('Выравнивание текста')).toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'Без заливки' })).toBeChecked()
  })

  it('offers the web fonts by name and keeps a system font saved before them', async () => {
    const { user, onChange } = setup('text', { font: 'Tahoma' } as Partial<LocalBlock>)
    const picker = field('Шрифт') as HTMLSelectElement
    const offered = [...picker.options].map((o) => o.textContent)
    expect(offered).toEqual([...FONT_FAMILIES, 'Tahoma'])
    expect(picker.value).toBe('Tahoma')
    await user.selectOptions(picker, 'PT Serif')
    expect(onChange).toHaveBeenLastCalledWith({ font: 'PT Serif' }, 'font')
    expect(picker.value).toBe('PT Serif')
  })

  it('says in Russian what is wrong with a number and keeps the last valid value', async () => {
    const { user, onChange, block } = setup('text')
    const width = field('Ширина')
    await user.clear(width)
    expect(await screen.findByText('Введите число')).toBeInTheDocument()
    expect(width).toHaveAttribute('aria-invalid', 'true')
    await user.type(width, 'abc')
    expect(screen.getByText('Введите число')).toBeInTheDocument()
    await user.clear(width)
    await user.type(width, '-5')
    expect(screen.getByText('Значение вне допустимого диапазона')).toBeInTheDocument()
    expect(onChange.mock.calls.some(([p]) => typeof p.width === 'number' && p.width < 0)).toBe(
      false,
    )
    // Nothing invalid reached the block: it keeps the width it had.
    expect((block() as BlockOf<'text'>).width).toBe(50)
    await user.clear(width)
    await user.type(width, '35,5')
    expect(screen.queryByText('Значение вне допустимого диапазона')).not.toBeInTheDocument()
    expect(onChange).toHaveBeenLastCalledWith({ width: 35.5 }, 'width')
  })

  it('shows the position in per cent of the background and the angle in whole degrees, with commas', async () => {
    const { user, onChange } = setup('text', { x: -50, y: 0, rotation: 29.9595 })
    expect(field('X')).toHaveValue('25')
    expect(field('Y')).toHaveValue('50')
    expect(field('Поворот')).toHaveValue('30')
    await user.clear(field('X'))
    await user.type(field('X'), '12,5')
    // 12.5 % of the width from the left edge: 75 of the 200 stored units left of the centre.
    expect(onChange).toHaveBeenLastCalledWith({ x: -75 }, 'x')
    await user.clear(field('Y'))
    await user.type(field('Y'), '100')
    expect(onChange).toHaveBeenLastCalledWith({ y: (100 * BG.height) / BG.width }, 'y')
  })

  it('scales a picture’s other side with the one typed while its proportions are kept', async () => {
    const { user, onChange } = setup('image', { width: 40, height: 30 })
    await user.clear(field('Ширина'))
    await user.type(field('Ширина'), '80')
    expect(onChange).toHaveBeenLastCalledWith({ width: 80, height: 60 }, 'width')
  })

  it('rejects a colour that is not #RRGGBB', async () => {
    const { user, onChange } = setup('text')
    const color = field('Цвет текста')
    await user.clear(color)
    await user.type(color, 'red')
    expect(await screen.findByText('Введите цвет в формате #RRGGBB')).toBeInTheDocument()
    expect(onChange.mock.calls.some(([p]) => p.color === 'red')).toBe(false)
  })

  it('changes the text as the user types, one field one undo step (tag)', async () => {
    const { user, onChange } = setup('text')
    const text = field('Текст')
    await user.clear(text)
    await user.type(text, 'Акция')
    expect(onChange).toHaveBeenLastCalledWith({ text: 'Акция' }, 'text')
    expect(new Set(onChange.mock.calls.map(([, tag]) => tag))).toEqual(new Set(['text']))
  })
})

describe('button block inspector', () => {
  it('accepts only http and https links', async () => {
    const { user, onChange } = setup('button')
    const link = field('Адрес ссылки')
    await user.type(link, 'ftp://example.ru')
    expect(await screen.findByText('Введите корректную ссылку')).toBeInTheDocument()
    await user.clear(link)
    await user.type(link, 'javascript:alert(1)')
    expect(screen.getByText('Введите корректную ссылку')).toBeInTheDocument()
    expect(
      onChange.mock.calls.some(([p]) => String(p.btn_type_value).startsWith('javascript')),
    ).toBe(false)
    await user.clear(link)
    await user.type(link, 'https://example.ru/sale')
    expect(screen.queryByText('Введите корректную ссылку')).not.toBeInTheDocument()
    expect(onChange).toHaveBeenLastCalledWith(
      { btn_type_value: 'https://example.ru/sale' },
      'btn_type_value',
    )
  })

  it('switches to a target background and offers the backgrounds', async () => {
    const { user, onChange } = setup('button')
    await user.click(screen.getByRole('radio', { name: 'Переход к секции' }))
    expect(onChange).toHaveBeenLastCalledWith(
      { btn_type: 'target', btn_type_value: '' },
      'btn_type',
    )
    const target = field('Секция, к которой перейти')
    await user.selectOptions(target, 'Секция 2')
    expect(onChange).toHaveBeenLastCalledWith({ btn_type_value: '11' }, 'btn_type_value')
  })

  it('has every field of the button block', () => {
    setup('button')
    for (const label of [
      'Текст кнопки',
      'Название',
      'Ширина',
      'Высота',
      'Размер шрифта',
      'Толщина рамки',
      'Шрифт',
      'Цвет текста',
      'Цвет кнопки',
      'Цвет рамки',
      'Адрес ссылки',
    ])
      expect(field(label)).toBeInTheDocument()
  })
})

describe('price block inspector', () => {
  it('rounds what a drag left to one decimal, with a comma', () => {
    // A resize and a drag leave stored numbers of four decimals (docs/editor.md).
    setup('text', { x: 1.25, y: -10.3333, width: 31.6667, fontSize: 9.4375 })
    expect(field('X')).toHaveValue('50,6')
    expect(field('Ширина')).toHaveValue('31,7')
    expect(field('Размер шрифта')).toHaveValue('9,4')
    expect((field('Y') as HTMLInputElement).value).toMatch(/^\d+(,\d)?$/)
  })

  it('derives text_price from the rouble amount and tidies the text', async () => {
    const { user, onChange, block } = setup('price')
    const price = field('Цена, ₽')
    // A tablet opens its number pad for the price.
    expect(price).toHaveAttribute('inputmode', 'decimal')
    await user.clear(price)
    await user.type(price, '2500')
    expect(onChange).toHaveBeenLastCalledWith({ text: '2500', text_price: 2500 }, 'text')
    expect(screen.getByText(/Сумма: 2\s500\s₽/)).toBeInTheDocument()
    await user.tab()
    const tidy = block() as BlockOf<'price'>
    expect(tidy.text).toMatch(/^2\s500\s₽$/)
    expect(tidy.text_price).toBe(2500)
    expect(price).toHaveValue(tidy.text)
  })

  it('says how to write a price and does not save a wrong one', async () => {
    const { user, onChange } = setup('price')
    const price = field('Цена, ₽')
    await user.clear(price)
    await user.type(price, 'дорого')
    expect(await screen.findByText('Введите цену, например «1 500 ₽»')).toBeInTheDocument()
    expect(onChange.mock.calls.some(([p]) => p.text === 'дорого')).toBe(false)
    await user.clear(price)
    await user.type(price, '1 200,50 руб.')
    expect(onChange).toHaveBeenLastCalledWith({ text: '1 200,50 руб.', text_price: 1200.5 }, 'text')
  })
})

describe('gift, video and subscribe inspectors', () => {
  it('checks the gift button and hook URLs', async () => {
    const { user } = setup('gift')
    await user.type(field('Ссылка кнопки'), 'example')
    await user.type(field('Адрес вебхука кнопки'), 'mailto:a@b.ru')
    expect(await screen.findAllByText('Введите корректную ссылку')).toHaveLength(2)
  })

  it('checks the video URL', async () => {
    const { user, onChange } = setup('video')
    await user.type(field('Ссылка на видео'), 'not a url')
    expect(await screen.findByText('Введите корректную ссылку')).toBeInTheDocument()
    await user.clear(field('Ссылка на видео'))
    await user.type(field('Ссылка на видео'), 'https://video.example.ru/a.mp4')
    expect(onChange).toHaveBeenLastCalledWith(
      { video_url: 'https://video.example.ru/a.mp4' },
      'video_url',
    )
    for (const label of ['Ширина', 'Высота', 'Масштаб по X', 'Масштаб по Y', 'Название'])
      expect(field(label)).toBeInTheDocument()
  })

  it('uploads an image, refuses other files in Russian', async () => {
    const { uploadFile } = setup('image')
    const input = document.querySelector('input[type=file]') as HTMLInputElement
    expect(input).toHaveAttribute('accept', 'image/jpeg,image/png,image/webp,image/gif')
    const text = new File(['x'], 'a.txt', { type: 'text/plain' })
    fireEvent.change(input, { target: { files: [text] } })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Выберите изображение в формате JPEG, PNG, WebP или GIF.',
    )
    expect(uploadFile).not.toHaveBeenCalled()
  })

  it('picks a specialist from the directory, a date and an action', async () => {
    const { user, onChange } = setup('subscribe')
    const select = field('Специалист')
    expect(
      within(select).getByRole('option', { name: 'Петров Пётр (выключен)' }),
    ).toBeInTheDocument()
    await user.selectOptions(select, 'Иванова Анна')
    expect(onChange).toHaveBeenLastCalledWith({ specialist_id: 5 }, 'specialist_id')
    await user.selectOptions(select, 'Не выбран')
    expect(onChange).toHaveBeenLastCalledWith({ specialist_id: null }, 'specialist_id')
    await user.type(field('Дата'), '2026-05-01')
    expect(onChange).toHaveBeenLastCalledWith({ date: '2026-05-01' }, 'date')
    await user.clear(field('Действие'))
    await user.type(field('Действие'), 'Прийти')
    expect(onChange).toHaveBeenLastCalledWith({ action: 'Прийти' }, 'action')
  })
})

describe('a conflicted block in the inspector', () => {
  it('shows the conflict inline, in the inspector’s words and units, with the choices', async () => {
    const db = new MirrorDb('editor-inspector-conflict')
    setDb(db)
    await db.backgrounds.put({ ...BG, ck: '10', version: 1 })
    await db.outbox.add({
      key: 'k',
      table: 'blocks',
      ck: '8',
      op: 'save',
      payload: {},
      state: 'parked',
      attempts: 0,
      nextAttemptAt: 0,
      sent: false,
      label: 'Кнопка',
      createdAt: 0,
      code: 'conflict',
      message: 'Блок изменён',
      baseVersion: 2,
      conflict: {
        version: 3,
        fields: [
          { field: 'x', mine: -50, theirs: 0 },
          { field: 'y', mine: 0, theirs: 0 },
        ],
        current: { id: 8, version: 3, type: 'button', bg_id: BG.id },
      },
    } as unknown as OutboxEntry)
    setup('button', { id: 8 })
    const notice = await screen.findByTestId('conflict-notice', {}, { timeout: 5_000 })
    expect(notice).toHaveTextContent('Блок изменили на сервере, пока вы его правили')
    expect(within(notice).getByText('Положение')).toBeInTheDocument()
    expect(notice).toHaveTextContent('Ваше: X 25 %, Y 50 %')
    expect(notice).toHaveTextContent('На сервере: X 50 %, Y 50 %')
    expect(within(notice).getByRole('button', { name: 'Оставить моё' })).toBeInTheDocument()
    expect(within(notice).getByRole('button', { name: 'Взять с сервера' })).toBeInTheDocument()
  })

  it('shows nothing of the kind for a block without one', async () => {
    setDb(new MirrorDb('editor-inspector-no-conflict'))
    setup('button', { id: 9 })
    expect(await screen.findByText('Положение')).toBeInTheDocument()
    expect(screen.queryByTestId('conflict-notice')).toBeNull()
  })
})
