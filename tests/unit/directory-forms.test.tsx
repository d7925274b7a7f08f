import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import {
  DepartmentForm,
  emptyDepartment,
  type DepartmentValues,
} from '../../src/features/directory/department-form.tsx'
import { emptyLocation, LocationForm } from '../../src/features/directory/location-form.tsx'
import {
  emptySpecialist,
  SpecialistForm,
  type SpecialistValues,
} from '../../src/features/directory/specialist-form.tsx'
import { ConfirmHost } from '../../src/ui/confirm.tsx'
import { pngImage } from '../support/png.ts'
import { renderInApp } from './helpers/render-app.tsx'

beforeEach(() => {
  act(() => i18n.activate('ru'))
  // jsdom has no FontFaceSet; Mantine's autosize textarea listens to it.
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => undefined, removeEventListener: () => undefined },
    })
})
afterEach(() => {
  document.body.innerHTML = ''
})

function handlers() {
  return {
    onSubmit: vi.fn(async (..._args: unknown[]) => 1),
    onSaved: vi.fn(),
    onCancel: vi.fn(),
  }
}

async function department(
  initial: DepartmentValues = emptyDepartment,
  serverErrors?: Record<string, string>,
) {
  const h = handlers()
  const view = await renderInApp(() => (
    <>
      <ConfirmHost />
      <DepartmentForm title="Отделение" initial={initial} serverErrors={serverErrors} {...h} />
    </>
  ))
  return { ...h, ...view, user: userEvent.setup() }
}

describe('DepartmentForm', () => {
  it('validates with the domain schema, in Russian, before saving anything', async () => {
    const { user, onSubmit } = await department()
    await user.click(await screen.findByRole('button', { name: 'Сохранить' }))
    expect(await screen.findByText('Заполните поле')).toBeInTheDocument()
    expect(screen.getByLabelText(/Название/)).toHaveAttribute('aria-invalid', 'true')
    await user.click(screen.getByLabelText(/Название/))
    await user.paste('x'.repeat(201))
    await user.click(screen.getByRole('button', { name: 'Сохранить' }))
    expect(await screen.findByText('Не длиннее 200 символов')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('submits trimmed values with Enter, then reports saved', async () => {
    const { user, onSubmit, onSaved } = await department()
    await user.type(await screen.findByLabelText(/Название/), '  Терапия  {Enter}')
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1))
    expect(onSubmit).toHaveBeenCalledWith(
      { name: 'Терапия', description: '' },
      { name: '  Терапия  ', description: '' },
    )
  })

  it('says so when the device is out of space, and keeps the typed values', async () => {
    const h = handlers()
    h.onSubmit.mockRejectedValueOnce(new DOMException('full', 'QuotaExceededError'))
    await renderInApp(() => <DepartmentForm title="Отделение" initial={emptyDepartment} {...h} />)
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText(/Название/), 'Терапия{Enter}')
    expect(await screen.findByText(/На устройстве закончилось место/)).toBeInTheDocument()
    expect(h.onSaved).not.toHaveBeenCalled()
    expect(screen.getByLabelText(/Название/)).toHaveValue('Терапия')
  })

  it('cancels with Esc', async () => {
    const { user, onCancel } = await department()
    await user.click(await screen.findByLabelText(/Название/))
    await user.keyboard('{Escape}')
    expect(onCancel).toHaveBeenCalledTimes(1)
  })

  it('shows the server field errors of a rejected change under their fields until edited', async () => {
    const { user } = await department(
      { name: 'Терапия', description: '' },
      { name: 'Отделение с таким названием уже есть', description: 'too_long' },
    )
    expect(await screen.findByText('Отделение с таким названием уже есть')).toBeInTheDocument()
    expect(screen.getByText('Слишком длинное значение')).toBeInTheDocument()
    await user.type(screen.getByLabelText(/Название/), '-2')
    expect(screen.queryByText('Отделение с таким названием уже есть')).toBeNull()
    expect(screen.getByText('Слишком длинное значение')).toBeInTheDocument()
  })

  it('asks before leaving with unsaved edits and stays when told to', async () => {
    const { user, router } = await department()
    await user.type(await screen.findByLabelText(/Название/), 'Хирургия')
    act(() => void router.navigate({ to: '/elsewhere' as never }))
    expect(await screen.findByText('Уйти без сохранения?')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Остаться' }))
    await waitFor(() => expect(screen.queryByText('Уйти без сохранения?')).toBeNull())
    expect(router.state.location.pathname).toBe('/')
    expect(screen.getByLabelText(/Название/)).toHaveValue('Хирургия')
  })

  it('leaves without asking when nothing was edited', async () => {
    const { router } = await department({ name: 'Терапия', description: '' })
    await screen.findByLabelText(/Название/)
    await act(() => router.navigate({ to: '/elsewhere' as never }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/elsewhere'))
    expect(screen.queryByText('Уйти без сохранения?')).toBeNull()
  })
})

describe('LocationForm', () => {
  it('checks the phone number and keeps the address optional', async () => {
    const h = handlers()
    await renderInApp(() => <LocationForm title="Локация" initial={emptyLocation} {...h} />)
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText(/Название/), 'Клиника на Ленина')
    await user.type(screen.getByLabelText(/Телефон/), 'звоните')
    await user.click(screen.getByRole('button', { name: 'Сохранить' }))
    expect(await screen.findByText('Введите корректный номер телефона')).toBeInTheDocument()
    expect(h.onSubmit).not.toHaveBeenCalled()
    await user.clear(screen.getByLabelText(/Телефон/))
    await user.type(screen.getByLabelText(/Телефон/), '+7 (342) 200-00-00{Enter}')
    await waitFor(() => expect(h.onSubmit).toHaveBeenCalledTimes(1))
    expect(h.onSubmit.mock.calls[0]?.[0]).toEqual({
      name: 'Клиника на Ленина',
      address: '',
      phone: '+7 (342) 200-00-00',
    })
  })
})

describe('SpecialistForm', () => {
  async function specialist(initial: SpecialistValues = emptySpecialist) {
    const h = handlers()
    const uploadPhoto = vi.fn(async () => 'local-file:7')
    await renderInApp(() => (
      <SpecialistForm
        title="Специалист"
        initial={initial}
        departments={[
          { id: 4, name: 'Терапия' },
          { id: -2, name: 'Хирургия (создана без сети)' },
        ]}
        locations={[{ id: 9, name: 'Клиника на Ленина' }]}
        uploadPhoto={uploadPhoto}
        renderPhoto={(url) => <img alt="Фото" data-url={url} />}
        {...h}
      />
    ))
    return { ...h, uploadPhoto, user: userEvent.setup() }
  }

  it('offers departments made offline (local ids) and saves the picked id', async () => {
    const { user, onSubmit } = await specialist()
    await user.type(await screen.findByLabelText(/ФИО/), 'Иванова Анна')
    await user.click(screen.getByLabelText('Отделение', { selector: 'input' }))
    await user.click(
      await screen.findByRole('option', { name: 'Хирургия (создана без сети)', hidden: true }),
    )
    await user.click(screen.getByRole('button', { name: 'Сохранить' }))
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1))
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      name: 'Иванова Анна',
      department_id: -2,
      location_id: null,
      enabled: true,
    })
  })

  it('checks the e-mail in Russian', async () => {
    const { user, onSubmit } = await specialist()
    await user.type(await screen.findByLabelText(/ФИО/), 'Иванова Анна')
    await user.type(screen.getByLabelText(/Электронная почта/), 'anna@')
    await user.click(screen.getByRole('button', { name: 'Сохранить' }))
    expect(
      await screen.findByText('Введите корректный адрес электронной почты'),
    ).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('uploads a photo, shows it, and can switch the specialist off', async () => {
    const { user, uploadPhoto, onSubmit } = await specialist({
      ...emptySpecialist,
      name: 'Иванова Анна',
    })
    const file = new File([new Uint8Array(pngImage(4, 4))], 'anna.png', { type: 'image/png' })
    const input = document.querySelector('input[type="file"]') as HTMLInputElement
    await user.upload(input, file)
    await waitFor(() => expect(uploadPhoto).toHaveBeenCalledWith(file))
    expect(await screen.findByAltText('Фото')).toHaveAttribute('data-url', 'local-file:7')
    await user.click(screen.getByRole('switch', { name: /Специалист активен/ }))
    await user.click(screen.getByRole('button', { name: 'Сохранить' }))
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1))
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ photo_url: 'local-file:7', enabled: false })
  })

  it('refuses a file that is not an image, with a message', async () => {
    const { uploadPhoto } = await specialist()
    // The file picker's filter can be bypassed (drag and drop, "all files"): the form checks too.
    const user = userEvent.setup({ applyAccept: false })
    const input = document.querySelector('input[type="file"]') as HTMLInputElement
    await user.upload(input, new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }))
    const message = await screen.findByText(
      'Этот файл не изображение. Выберите фото в формате JPEG, PNG, WebP или GIF.',
    )
    // On the form, under the photo, not only in a notification.
    expect(message.closest('[role="group"]')).toHaveTextContent('Фото')
    expect(uploadPhoto).not.toHaveBeenCalled()
  })

  it('refuses a renamed document that claims to be a picture, when it is picked', async () => {
    const { user, uploadPhoto } = await specialist()
    const input = document.querySelector('input[type="file"]') as HTMLInputElement
    await user.upload(input, new File(['%PDF-1.7 …'], 'photo.png', { type: 'image/png' }))
    expect(
      await screen.findByText(
        'Этот файл не изображение. Выберите фото в формате JPEG, PNG, WebP или GIF.',
      ),
    ).toBeInTheDocument()
    expect(uploadPhoto).not.toHaveBeenCalled()
  })
})
