import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import { createRecord } from '../../src/sync/mutators/records.ts'
import { createWorkspace, setCurrentWorkspace } from '../../src/sync/mutators/workspaces.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import { LocationEditPage } from '../../src/features/directory/location-pages.tsx'
import { LocationsPage } from '../../src/features/directory/locations-page.tsx'
import type { BitrixIntegration } from '../../src/domain/integration.ts'
import {
  emptyIntegration,
  integrationValues,
} from '../../src/features/integrations/integration-form.tsx'
import { ConfirmHost } from '../../src/ui/confirm.tsx'
import { renderInApp } from './helpers/render-app.tsx'

let db: MirrorDb
let n = 0
beforeEach(() => {
  n += 1
  db = new MirrorDb(`record-pages-${n}`)
  setDb(db)
  act(() => i18n.activate('ru'))
})
afterEach(() => {
  document.body.innerHTML = ''
})

async function location() {
  const ws = await createWorkspace('Клиника')
  await setCurrentWorkspace(ws)
  return createRecord('location', ws, { name: 'Ленина', address: 'ул. Ленина, 1', phone: '' })
}

/** A stored location's form, with «Удалить» pressed: the confirmation is open. */
async function deleteFromForm() {
  const id = await location()
  const { router } = await renderInApp(() => (
    <>
      <ConfirmHost />
      <LocationEditPage id={id} />
    </>
  ))
  const user = userEvent.setup()
  await user.click(await screen.findByRole('button', { name: 'Удалить' }))
  return { id, router, user, dialog: await screen.findByRole('dialog') }
}

describe('a record’s edit page', () => {
  it('deletes the record after the named confirmation, then goes back to the list', async () => {
    const { id, router, user, dialog } = await deleteFromForm()
    expect(dialog).toHaveTextContent('Удалить локацию?')
    expect(dialog).toHaveTextContent('Локация «Ленина» будет удалена.')
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/locations'))
    expect(await db.location.get(id)).toBeUndefined()
  })

  it('keeps the record and stays when the confirmation is declined', async () => {
    const { id, router, user, dialog } = await deleteFromForm()
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(router.state.location.pathname).toBe('/')
    expect((await db.location.get(id))?.name).toBe('Ленина')
  })

  it('«Отмена» goes back where the person came from', async () => {
    const id = await location()
    const { router } = await renderInApp(() => <LocationEditPage id={id} />, '/specialist')
    await act(() => router.navigate({ to: `/locations/${id}` }))
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Отмена' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/specialist'))
  })

  it('«Отмена» on a form opened without an earlier page goes to its list', async () => {
    const id = await location()
    const { router } = await renderInApp(() => <LocationEditPage id={id} />, `/locations/${id}`)
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Отмена' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/locations'))
  })

  it('says the record is gone and offers the way back to its list', async () => {
    await location()
    const { router } = await renderInApp(() => <LocationEditPage id={404} />)
    expect(await screen.findByText('Запись не найдена')).toBeInTheDocument()
    await userEvent.setup().click(screen.getByRole('button', { name: 'К локациям' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/locations'))
  })
})

describe('a directory list', () => {
  it('shows each location’s address and phone under its name and deletes from the row', async () => {
    const id = await location()
    await renderInApp(() => (
      <>
        <ConfirmHost />
        <LocationsPage />
      </>
    ))
    const user = userEvent.setup()
    expect(await screen.findByText('ул. Ленина, 1')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Удалить Ленина' }))
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Удалить' }),
    )
    await waitFor(async () => expect(await db.location.get(id)).toBeUndefined())
    expect(await screen.findByText('Локаций пока нет')).toBeInTheDocument()
  })
})

describe('integration form values', () => {
  it('start empty and enabled, with every field of the kind', () => {
    expect(emptyIntegration('bitrix')).toEqual({
      name: '',
      portal_url: '',
      webhook_url: '',
      enabled: true,
    })
    expect(Object.keys(emptyIntegration('amo')).sort()).toEqual(
      ['client_id', 'client_secret', 'enabled', 'name', 'redirect_uri', 'subdomain'].sort(),
    )
  })

  it('of a stored integration keep its secret (null) and leave out its ids', () => {
    const stored: BitrixIntegration = {
      id: 6,
      workspace_id: 1,
      name: 'Портал',
      portal_url: 'https://clinic.bitrix24.ru',
      webhook_url: 'https://clinic.bitrix24.ru/rest/1/tok3n/',
      enabled: false,
    }
    expect(integrationValues('bitrix', stored)).toEqual({
      name: 'Портал',
      portal_url: 'https://clinic.bitrix24.ru',
      webhook_url: null,
      enabled: false,
    })
  })
})
