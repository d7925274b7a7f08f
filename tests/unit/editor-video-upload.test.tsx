import { I18nProvider } from '@lingui/react'
import { MantineProvider } from '@mantine/core'
import { act, fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import type { BlockOf } from '../../src/domain/block.ts'
import type { LocalBlock } from '../../src/features/editor/editor-data.ts'
import { BlockInspector } from '../../src/features/editor/inspector/block-inspector.tsx'
import { defaultBlock } from '../../src/features/editor/model/block-shape.ts'
import {
  checkUpload,
  IMAGE_TYPES,
  MAX_VIDEO_UPLOAD_BYTES,
  VIDEO_TYPES,
} from '../../src/features/editor/upload.ts'
import { installBrowserStubs } from './helpers/render-app.tsx'

const BG = { id: 10, project_id: 1, image_url: '', width: 1600, height: 900, position: 0 }
const texts = {
  text: 'Новый текст',
  button: 'Кнопка',
  gift: 'Подарок',
  priceButton: 'Купить',
  subscribeAction: 'Записаться',
}
const MB = 1024 * 1024

beforeEach(() => {
  installBrowserStubs()
  act(() => i18n.activate('ru'))
})
afterEach(() => {
  document.body.innerHTML = ''
})

/** Only its type and size matter to the checks: no need for megabytes of memory. */
const fakeFile = (type: string, size: number) => ({ type, size }) as Blob

describe('checking a file before upload', () => {
  it('takes MP4 and WebM videos up to 100 MB, images up to 10 MB', () => {
    expect(checkUpload(fakeFile('video/mp4', 50 * MB), VIDEO_TYPES, 'video')).toBeNull()
    expect(checkUpload(fakeFile('video/webm', MAX_VIDEO_UPLOAD_BYTES), VIDEO_TYPES, 'video')).toBe(
      null,
    )
    expect(checkUpload(fakeFile('video/mp4', 101 * MB), VIDEO_TYPES, 'video')).toBe(
      'Видео больше 100 МБ. Выберите файл поменьше.',
    )
    expect(checkUpload(fakeFile('image/png', 11 * MB), IMAGE_TYPES, 'image')).toBe(
      'Файл больше 10 МБ. Выберите файл поменьше.',
    )
  })

  it('refuses other kinds of video and empty files in Russian', () => {
    expect(checkUpload(fakeFile('video/quicktime', MB), VIDEO_TYPES, 'video')).toBe(
      'Выберите видео в формате MP4 или WebM.',
    )
    expect(checkUpload(fakeFile('video/webm', 0), VIDEO_TYPES, 'video')).toBe('Файл пустой.')
  })
})

/** The video inspector over a block held in state, with a controllable upload progress. */
function setup(progress: { value: number | null }) {
  const onChange = vi.fn<(patch: Record<string, unknown>, tag: string) => void>()
  const uploadFile = vi.fn(async (_file: Blob) => 'local-file:7')
  let current = defaultBlock('video', BG.id, BG, 0, texts) as LocalBlock
  let rerender = () => undefined as void
  function Harness() {
    const [block, setBlock] = useState(current)
    rerender = () => setBlock({ ...current })
    return (
      <BlockInspector
        block={block}
        background={BG}
        backgrounds={[BG]}
        specialists={[]}
        uploadFile={uploadFile}
        resolveFileUrl={(url) => (url.startsWith('local-file:') ? 'blob:local-video' : url)}
        useUploadProgress={(url) => (url.startsWith('local-file:') ? progress.value : null)}
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
  return {
    onChange,
    uploadFile,
    block: () => current as BlockOf<'video'>,
    /** The sync layer rewrote the block's url to the server's. */
    setServerUrl(url: string) {
      current = { ...current, video_src: url } as LocalBlock
      act(() => rerender())
    },
    rerender: () => act(() => rerender()),
  }
}

describe('video block inspector', () => {
  it('keeps an uploaded video on the device, shows it waiting, then its progress, then the server url', async () => {
    const progress = { value: null as number | null }
    const view = setup(progress)
    await userEvent.setup().click(screen.getByRole('radio', { name: 'Файл' }))
    const input = document.querySelector('input[type=file]') as HTMLInputElement
    expect(input).toHaveAttribute('accept', 'video/mp4,video/webm')

    const clip = new File([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3])], 'clip.webm', {
      type: 'video/webm',
    })
    // The file is stored (uploadFile resolves) and the block takes its url within one act.
    await act(async () => {
      fireEvent.change(input, { target: { files: [clip] } })
    })
    expect(view.onChange).toHaveBeenCalledWith({ video_src: 'local-file:7' }, 'video_src')
    expect(view.uploadFile).toHaveBeenCalledWith(clip)
    // Offline or queued: the file waits on the device and plays from there.
    expect(
      await screen.findByText('Файл сохранён на устройстве и ждёт отправки на сервер.'),
    ).toBeInTheDocument()
    expect(screen.getByLabelText('Загруженное видео')).toHaveAttribute('src', 'blob:local-video')
    expect(screen.getByText('Видео с устройства')).toBeInTheDocument()

    progress.value = 0.42
    view.rerender()
    expect(screen.getByRole('progressbar', { name: 'Загрузка файла на сервер' })).toHaveAttribute(
      'aria-valuenow',
      '42',
    )
    expect(screen.getByText('Отправляется на сервер: 42%')).toBeInTheDocument()

    view.setServerUrl('/uploads/0123456789abcdef0123456789abcdef.webm')
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
    expect(screen.getByLabelText('Загруженное видео')).toHaveAttribute(
      'src',
      '/uploads/0123456789abcdef0123456789abcdef.webm',
    )
    expect(screen.getByText('/uploads/0123456789abcdef0123456789abcdef.webm')).toBeInTheDocument()
  })

  it('refuses a QuickTime file in Russian and uploads nothing', async () => {
    const view = setup({ value: null })
    await userEvent.setup().click(screen.getByRole('radio', { name: 'Файл' }))
    const input = document.querySelector('input[type=file]') as HTMLInputElement
    const mov = new File(['x'], 'clip.mov', { type: 'video/quicktime' })
    fireEvent.change(input, { target: { files: [mov] } })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Выберите видео в формате MP4 или WebM.',
    )
    expect(view.uploadFile).not.toHaveBeenCalled()
    expect(view.block().video_src).toBe('')
  })
})
