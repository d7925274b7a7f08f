import { I18nProvider } from '@lingui/react'
import { MantineProvider } from '@mantine/core'
import { act, fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import type { StoryFitChoice } from '../../src/features/editor/story-fit/render.ts'
import {
  StoryFitDialog,
  type StoryFitDialogProps,
} from '../../src/features/editor/story-fit/story-fit-dialog.tsx'
import { installBrowserStubs } from './helpers/render-app.tsx'

beforeEach(() => {
  installBrowserStubs()
  act(() => i18n.activate('ru'))
})
afterEach(() => {
  document.body.innerHTML = ''
})

function setup(overrides: Partial<StoryFitDialogProps> = {}) {
  const onChoose = vi.fn<(choice: StoryFitChoice) => void>()
  const onCancel = vi.fn()
  render(
    <I18nProvider i18n={i18n}>
      <MantineProvider>
        <StoryFitDialog
          imageUrl="blob:picture"
          size={{ width: 1600, height: 900 }}
          defaultColour="#336699"
          busy={false}
          error={null}
          onChoose={onChoose}
          onCancel={onCancel}
          {...overrides}
        />
      </MantineProvider>
    </I18nProvider>,
  )
  return { onChoose, onCancel }
}

const addSlide = () => screen.getByRole('button', { name: 'Добавить слайд' })

describe('the dialog for a story picture that is not 9:16', () => {
  it('names the picture’s size and starts with a centred crop', async () => {
    const { onChoose } = setup()
    expect(await screen.findByText(/другие пропорции \(1600 × 900\)/)).toBeTruthy()
    expect(screen.getByRole('radio', { name: 'Обрезать до 9:16' })).toHaveProperty('checked', true)
    await userEvent.click(addSlide())
    expect(onChoose).toHaveBeenCalledWith({ mode: 'crop', offset: 0.5 })
  })

  it('moves the crop with the slider’s keys and with a drag of the picture', async () => {
    const { onChoose } = setup()
    const slider = await screen.findByRole('slider')
    act(() => slider.focus())
    fireEvent.keyDown(slider, { key: 'ArrowRight' })
    fireEvent.keyDown(slider, { key: 'ArrowRight' })
    await userEvent.click(addSlide())
    expect(onChoose).toHaveBeenLastCalledWith({ mode: 'crop', offset: 0.52 })

    // The frame shows 320 px of the 900 px height: a picture px is 320/900 of a preview px.
    // Dragging the picture 100 preview px right shows what lies 281 picture px to the left.
    const frame = screen.getByTestId('story-fit-crop')
    fireEvent.pointerDown(frame, { pointerId: 1, clientX: 200, clientY: 50 })
    fireEvent.pointerMove(frame, { pointerId: 1, clientX: 300, clientY: 50 })
    fireEvent.pointerUp(frame, { pointerId: 1, clientX: 300, clientY: 50 })
    await userEvent.click(addSlide())
    const last = onChoose.mock.lastCall![0] as { mode: 'crop'; offset: number }
    expect(last.mode).toBe('crop')
    expect(last.offset).toBeCloseTo(0.52 - (100 * 900) / 320 / (1600 - 506), 6)
  })

  it('fits with the edge’s colour by default, or with the colour picked', async () => {
    const { onChoose } = setup()
    await userEvent.click(await screen.findByText('Вписать с полями'))
    expect(screen.getByTestId('story-fit-fit').style.background).toBe('rgb(51, 102, 153)')
    await userEvent.click(addSlide())
    expect(onChoose).toHaveBeenLastCalledWith({ mode: 'fit', colour: '#336699' })

    const field = screen.getByLabelText('Цвет полей')
    fireEvent.change(field, { target: { value: '#ffffff' } })
    await userEvent.click(addSlide())
    expect(onChoose).toHaveBeenLastCalledWith({ mode: 'fit', colour: '#ffffff' })

    fireEvent.change(field, { target: { value: 'белый' } })
    expect(screen.getByText('Введите цвет, например #ffffff')).toBeTruthy()
    expect(addSlide()).toHaveProperty('disabled', true)
  })

  it('cancels without choosing, and shows a failure in Russian with the choice still open', async () => {
    const first = setup()
    await userEvent.click(await screen.findByRole('button', { name: 'Отмена' }))
    expect(first.onCancel).toHaveBeenCalledOnce()
    expect(first.onChoose).not.toHaveBeenCalled()
    document.body.innerHTML = ''

    setup({ error: 'Не удалось прочитать изображение. Файл повреждён?' })
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Не удалось прочитать изображение. Файл повреждён?',
    )
    expect(addSlide()).toHaveProperty('disabled', false)
  })
})
