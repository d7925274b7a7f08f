import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import type { AmoIntegration, BitrixIntegration } from '../../src/domain/integration.ts'
import { AmoForm, amoValues, emptyAmo } from '../../src/features/integrations/amo-form.tsx'
import {
  BitrixForm,
  bitrixValues,
  emptyBitrix,
} from '../../src/features/integrations/bitrix-form.tsx'
import { renderInApp } from './helpers/render-app.tsx'

beforeEach(() => act(() => i18n.activate('ru')))
afterEach(() => {
  document.body.innerHTML = ''
})

const amo: AmoIntegration = {
  id: 5,
  workspace_id: 1,
  name: 'Основная воронка',
  subdomain: 'clinic',
  client_id: 'abc-123',
  client_secret: 'super-secret-9f2k',
  redirect_uri: 'https://clinic.ru/amo',
  enabled: true,
}

const bitrix: BitrixIntegration = {
  id: 6,
  workspace_id: 1,
  name: 'Портал',
  portal_url: 'https://clinic.bitrix24.ru',
  webhook_url: 'https://clinic.bitrix24.ru/rest/1/tok3n5ecret/',
  enabled: false,
}

function handlers() {
  return {
    onSubmit: vi.fn(async (..._args: unknown[]) => undefined),
    onSaved: vi.fn(),
    onCancel: vi.fn(),
  }
}

describe('AmoForm', () => {
  it('explains bad input in Russian: subdomain, https only, missing secret', async () => {
    const h = handlers()
    await renderInApp(() => <AmoForm title="amoCRM" initial={emptyAmo} {...h} />)
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText(/Название/), 'Воронка')
    await user.type(screen.getByLabelText(/Поддомен amoCRM/), 'my_clinic!')
    await user.type(screen.getByLabelText(/client id/), 'id-1')
    await user.type(screen.getByLabelText(/redirect URI/), 'http://clinic.ru/cb')
    await user.click(screen.getByRole('button', { name: 'Сохранить' }))
    expect(await screen.findByText('Некорректный поддомен')).toBeInTheDocument()
    expect(screen.getByText('Ссылка должна начинаться с https://')).toBeInTheDocument()
    // A new integration has no stored secret to keep.
    expect(screen.getByText('Заполните поле')).toBeInTheDocument()
    expect(h.onSubmit).not.toHaveBeenCalled()
  })

  it('shows the stored secret masked and keeps it when the form is saved as is', async () => {
    const h = handlers()
    await renderInApp(() => <AmoForm title="amoCRM" record={amo} initial={amoValues(amo)} {...h} />)
    const user = userEvent.setup()
    expect(await screen.findByTestId('client_secret-masked')).toHaveTextContent('••••9f2k')
    expect(document.body.textContent).not.toContain('super-secret')
    await user.clear(screen.getByLabelText(/Название/))
    await user.type(screen.getByLabelText(/Название/), 'Новая воронка{Enter}')
    await waitFor(() => expect(h.onSubmit).toHaveBeenCalledTimes(1))
    const output = h.onSubmit.mock.calls[0]?.[0] as unknown as Record<string, unknown>
    expect(output).toMatchObject({ name: 'Новая воронка', subdomain: 'clinic', enabled: true })
    expect(output).not.toHaveProperty('client_secret')
  })

  it('replaces only the secret with «Заменить», without retyping the rest', async () => {
    const h = handlers()
    await renderInApp(() => <AmoForm title="amoCRM" record={amo} initial={amoValues(amo)} {...h} />)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Заменить' }))
    const secret = screen.getByLabelText(/client secret/, { selector: 'input' })
    expect(secret).toHaveValue('')
    await user.click(screen.getByRole('button', { name: 'Сохранить' }))
    expect(await screen.findByText('Заполните поле')).toBeInTheDocument()
    await user.type(secret, 'new-secret-0001{Enter}')
    await waitFor(() => expect(h.onSubmit).toHaveBeenCalledTimes(1))
    expect(h.onSubmit.mock.calls[0]?.[0]).toEqual({
      name: amo.name,
      subdomain: amo.subdomain,
      client_id: amo.client_id,
      client_secret: 'new-secret-0001',
      redirect_uri: amo.redirect_uri,
      enabled: true,
    })
  })

  it('«Не менять» goes back to keeping the stored secret', async () => {
    const h = handlers()
    await renderInApp(() => <AmoForm title="amoCRM" record={amo} initial={amoValues(amo)} {...h} />)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Заменить' }))
    await user.type(screen.getByLabelText(/client secret/, { selector: 'input' }), 'half')
    await user.click(screen.getByRole('button', { name: 'Не менять' }))
    expect(screen.getByTestId('client_secret-masked')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Сохранить' }))
    await waitFor(() => expect(h.onSubmit).toHaveBeenCalledTimes(1))
    expect(h.onSubmit.mock.calls[0]?.[0]).not.toHaveProperty('client_secret')
  })

  it('puts a rejected change’s server message on its field', async () => {
    const h = handlers()
    await renderInApp(() => (
      <AmoForm
        title="amoCRM"
        record={amo}
        initial={amoValues(amo)}
        serverErrors={{ subdomain: 'Аккаунт amoCRM с таким поддоменом не найден' }}
        {...h}
      />
    ))
    const field = await screen.findByLabelText(/Поддомен amoCRM/)
    expect(screen.getByText('Аккаунт amoCRM с таким поддоменом не найден')).toBeInTheDocument()
    expect(field).toHaveAttribute('aria-invalid', 'true')
  })
})

describe('BitrixForm', () => {
  it('accepts only Bitrix24 portals over https', async () => {
    const h = handlers()
    await renderInApp(() => <BitrixForm title="Bitrix24" initial={emptyBitrix} {...h} />)
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText(/Название/), 'Портал')
    await user.type(screen.getByLabelText(/Адрес портала/), 'https://example.com')
    await user.type(
      screen.getByLabelText(/Входящий вебхук/, { selector: 'input' }),
      'https://clinic.bitrix24.ru/rest/1/abc/',
    )
    await user.click(screen.getByRole('button', { name: 'Сохранить' }))
    expect(await screen.findByText('Введите корректную ссылку')).toBeInTheDocument()
    expect(h.onSubmit).not.toHaveBeenCalled()
    await user.clear(screen.getByLabelText(/Адрес портала/))
    await user.type(screen.getByLabelText(/Адрес портала/), 'https://clinic.bitrix24.kz{Enter}')
    await waitFor(() => expect(h.onSubmit).toHaveBeenCalledTimes(1))
    expect(h.onSubmit.mock.calls[0]?.[0]).toMatchObject({
      portal_url: 'https://clinic.bitrix24.kz',
      webhook_url: 'https://clinic.bitrix24.ru/rest/1/abc/',
    })
  })

  it('masks the webhook token and keeps the webhook unless replaced', async () => {
    const h = handlers()
    await renderInApp(() => (
      <BitrixForm title="Bitrix24" record={bitrix} initial={bitrixValues(bitrix)} {...h} />
    ))
    const user = userEvent.setup()
    expect(await screen.findByTestId('webhook_url-masked')).toHaveTextContent(
      'https://clinic.bitrix24.ru/rest/1/••••/',
    )
    await user.click(screen.getByRole('switch', { name: /Интеграция включена/ }))
    await user.click(screen.getByRole('button', { name: 'Сохранить' }))
    await waitFor(() => expect(h.onSubmit).toHaveBeenCalledTimes(1))
    expect(h.onSubmit.mock.calls[0]?.[0]).toEqual({
      name: 'Портал',
      portal_url: 'https://clinic.bitrix24.ru',
      enabled: true,
    })
  })
})
