import { I18nProvider } from '@lingui/react'
import { MantineProvider } from '@mantine/core'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import type { Size } from '../../src/domain/geometry.ts'
import { AddBackgroundButton, SlideStrip } from '../../src/features/editor/backgrounds-nav.tsx'
import type { EditorKind } from '../../src/features/editor/model/layout.ts'
import { NotificationHost } from '../../src/ui/notification-host.tsx'
import { installBrowserStubs } from './helpers/render-app.tsx'

// jsdom decodes no pictures: the size and the drawing are the browser's part (tests/e2e).
const picture = vi.hoisted(() => ({ size: { width: 1600, height: 900 } as Size | null }))
const rendered = vi.hoisted(() => ({ fail: null as string | null }))
vi.mock('../../src/features/editor/upload.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/features/editor/upload.ts')>()
  return {
    ...real,
    readImageSize: async () => {
      if (!picture.size)
        throw new real.UploadProblem('Не удалось прочитать изображение. Файл повреждён?')
      return picture.size
    },
  }
})
vi.mock('../../src/features/editor/story-fit/render.ts', async () => {
  const { UploadProblem } = await import('../../src/features/editor/upload.ts')
  return {
    decodeImage: async () => ({ close() {} }),
    sampleEdgeColour: () => '#ffffff',
    renderStorySlide: async (_file: Blob, choice: { mode: string }) => {
      if (rendered.fail) throw new UploadProblem(rendered.fail)
      return {
        blob: new Blob([choice.mode], { type: 'image/png' }),
        size: { width: 506, height: 900 },
      }
    },
  }
})

beforeEach(() => {
  installBrowserStubs()
  URL.createObjectURL = () => 'blob:picture'
  URL.revokeObjectURL = () => undefined
  act(() => i18n.activate('ru'))
  rendered.fail = null
})
afterEach(() => {
  document.body.innerHTML = ''
})

function setup(kind: EditorKind) {
  const addBackground = vi.fn(async (_file: Blob, _size: Size) => 42)
  const onAdded = vi.fn()
  const { container } = render(
    <I18nProvider i18n={i18n}>
      <MantineProvider>
        <NotificationHost />
        <AddBackgroundButton
          kind={kind}
          addBackground={addBackground}
          onAdded={onAdded}
          label="Слайд"
        />
      </MantineProvider>
    </I18nProvider>,
  )
  const input = container.querySelector('input[type="file"]') as HTMLInputElement
  const pick = (file: File) => fireEvent.change(input, { target: { files: [file] } })
  return { addBackground, onAdded, pick }
}

const png = () => new File([new Uint8Array([1, 2, 3])], 'picture.png', { type: 'image/png' })

describe('adding a background that is not 9:16', () => {
  it('adds a landing section as it is, without asking', async () => {
    const { addBackground, onAdded, pick } = setup('landing')
    const file = png()
    pick(file)
    await waitFor(() => expect(onAdded).toHaveBeenCalledWith(42))
    expect(addBackground).toHaveBeenCalledWith(file, { width: 1600, height: 900 })
    expect(screen.queryByText('Добавить слайд')).toBeNull()
  })

  it('adds a 9:16 story slide as it is, without asking', async () => {
    picture.size = { width: 1080, height: 1920 }
    try {
      const { onAdded, pick } = setup('stories')
      pick(png())
      await waitFor(() => expect(onAdded).toHaveBeenCalledWith(42))
      expect(screen.queryByText('Добавить слайд')).toBeNull()
    } finally {
      picture.size = { width: 1600, height: 900 }
    }
  })

  it('asks for a story slide and adds the cropped picture with its own size', async () => {
    const { addBackground, onAdded, pick } = setup('stories')
    pick(png())
    await userEvent.click(await screen.findByRole('button', { name: 'Добавить слайд' }))
    await waitFor(() => expect(onAdded).toHaveBeenCalledWith(42))
    const [blob, size] = addBackground.mock.lastCall!
    expect(await blob.text()).toBe('crop')
    expect(size).toEqual({ width: 506, height: 900 })
    await waitFor(() => expect(screen.queryByText('Добавить слайд')).toBeNull())
  })

  it('adds nothing on «Отмена»', async () => {
    const { addBackground, pick } = setup('stories')
    pick(png())
    await userEvent.click(await screen.findByRole('button', { name: 'Отмена' }))
    await waitFor(() => expect(screen.queryByText('Добавить слайд')).toBeNull())
    expect(addBackground).not.toHaveBeenCalled()
  })

  it('keeps the dialog open with a Russian message when the picture cannot be drawn', async () => {
    rendered.fail = 'Не удалось прочитать изображение. Файл повреждён?'
    const { addBackground, pick } = setup('stories')
    pick(png())
    await userEvent.click(await screen.findByRole('button', { name: 'Добавить слайд' }))
    expect((await screen.findByRole('alert')).textContent).toBe(rendered.fail)
    expect(screen.getByRole('button', { name: 'Добавить слайд' })).toBeTruthy()
    expect(addBackground).not.toHaveBeenCalled()
  })

  it('refuses a file that is not an image before asking anything', async () => {
    const { addBackground, pick } = setup('stories')
    pick(new File(['x'], 'notes.txt', { type: 'text/plain' }))
    expect(
      await screen.findByText('Выберите изображение в формате JPEG, PNG, WebP или GIF.'),
    ).toBeTruthy()
    expect(screen.queryByText('Добавить слайд')).toBeNull()
    expect(addBackground).not.toHaveBeenCalled()
  })

  it('tells a picture that does not decode in Russian and adds nothing', async () => {
    picture.size = null
    try {
      const { addBackground, pick } = setup('stories')
      pick(png())
      expect(
        await screen.findByText('Не удалось прочитать изображение. Файл повреждён?'),
      ).toBeTruthy()
      expect(addBackground).not.toHaveBeenCalled()
    } finally {
      picture.size = { width: 1600, height: 900 }
    }
  })
})

describe('the strip of backgrounds along the bottom', () => {
  const strip = (kind: EditorKind) => {
    const addBackground = vi.fn(async (_file: Blob, _size: Size) => 42)
    const bg = (id: number) => ({
      id,
      project_id: 1,
      image_url: '',
      width: 1600,
      height: 900,
      position: id,
      version: 1,
    })
    render(
      <I18nProvider i18n={i18n}>
        <MantineProvider>
          <NotificationHost />
          <SlideStrip
            kind={kind}
            backgrounds={[bg(1), bg(2)] as never}
            activeBgId={1}
            blockCounts={new Map([[1, 3]])}
            resolveFileUrl={(url) => url}
            addBackground={addBackground}
            onSelect={() => undefined}
          />
        </MantineProvider>
      </I18nProvider>,
    )
    return { addBackground }
  }

  it("names a landing's sections «Секция», and adds one as it is (a tablet held upright)", async () => {
    const { addBackground } = strip('landing')
    expect(screen.getByRole('list', { name: 'Секции' })).toBeTruthy()
    expect(screen.queryByRole('list', { name: 'Слайды' })).toBeNull()
    expect(screen.getByRole('button', { name: /Секция 1, блоков: 3/ })).toBeTruthy()
    expect(screen.queryByText(/Слайд/)).toBeNull()
    const input = document.querySelector('input[type="file"]') as HTMLInputElement
    fireEvent.change(input, { target: { files: [png()] } })
    await waitFor(() => expect(addBackground).toHaveBeenCalledTimes(1))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it("names a story's slides «Слайд»", () => {
    strip('stories')
    expect(screen.getByRole('list', { name: 'Слайды' })).toBeTruthy()
    expect(screen.getByRole('button', { name: /Слайд 2, без блоков/ })).toBeTruthy()
  })
})
