import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useRouterState } from '@tanstack/react-router'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import { createRecord } from '../../src/sync/mutators/records.ts'
import { createWorkspace, setCurrentWorkspace } from '../../src/sync/mutators/workspaces.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import { DepartmentEditPage } from '../../src/features/directory/department-pages.tsx'
import { DepartmentsPage } from '../../src/features/directory/departments-page.tsx'
import { SpecialistEditPage } from '../../src/features/directory/specialist-pages.tsx'
import { SpecialistsPage } from '../../src/features/directory/specialists-page.tsx'
import { WorkspaceSwitcher } from '../../src/features/workspaces/workspace-switcher.tsx'
import { ConfirmHost } from '../../src/ui/confirm.tsx'
import { renderInApp } from './helpers/render-app.tsx'

let db: MirrorDb
let n = 0
beforeEach(() => {
  n += 1
  db = new MirrorDb(`screens-${n}`)
  setDb(db)
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

const rowNames = (name: string) =>
  within(screen.getByRole('list', { name }))
    .getAllByRole('listitem')
    .map((item) => within(item).getByTestId('row-name').textContent)

describe('screens on the mirror', () => {
  it('lists the current workspace only, with a pending mark on an unsynced record', async () => {
    const clinic = await createWorkspace('Клиника')
    const salon = await createWorkspace('Салон')
    await setCurrentWorkspace(clinic)
    await createRecord('department', clinic, { name: 'Терапия', description: '' })
    await createRecord('department', salon, { name: 'Маникюр', description: '' })
    await renderInApp(() => (
      <>
        <WorkspaceSwitcher />
        <DepartmentsPage />
      </>
    ))
    const user = userEvent.setup()
    await waitFor(() => expect(rowNames('Отделения')).toEqual(['Терапия']))
    expect(screen.getByText('Ждёт отправки')).toBeInTheDocument()

    await user.selectOptions(screen.getByTestId('workspace-switcher'), String(salon))
    await waitFor(() => expect(rowNames('Отделения')).toEqual(['Маникюр']))
    expect((await db.meta.get('currentWorkspace'))?.value).toBe(salon)
  })

  it('says what to do when a workspace has no records', async () => {
    await setCurrentWorkspace(await createWorkspace('Пустое'))
    await renderInApp(() => <SpecialistsPage />)
    expect(await screen.findByText('Специалистов пока нет')).toBeInTheDocument()
    expect(
      within(screen.getByTestId('empty-state')).getByRole('link', { name: 'Добавить специалиста' }),
    ).toHaveAttribute('href', '/specialist/add')
  })

  it('filters specialists by a department created offline and toggles one off from the list', async () => {
    const ws = await createWorkspace('Клиника')
    await setCurrentWorkspace(ws)
    const surgery = await createRecord('department', ws, { name: 'Хирургия', description: '' })
    const base = {
      position: '',
      location_id: null,
      phone: '',
      email: '',
      photo_url: '',
      description: '',
    }
    await createRecord('specialist', ws, { ...base, name: 'Анна', department_id: surgery })
    await createRecord('specialist', ws, { ...base, name: 'Борис', department_id: null })
    expect(surgery).toBeLessThan(0)
    await renderInApp(() => (
      <>
        <ConfirmHost />
        <SpecialistsPage />
      </>
    ))
    const user = userEvent.setup()
    await waitFor(() => expect(rowNames('Специалисты')).toEqual(['Анна', 'Борис']))
    await user.selectOptions(screen.getByRole('combobox', { name: 'Сортировка' }), 'department')
    // The filter is the platform's own select: its options are the workspace's departments.
    const departmentFilter = screen.getByRole('combobox', { name: 'Отделение' })
    await waitFor(() =>
      expect(within(departmentFilter).getByRole('option', { name: 'Хирургия' })).toBeTruthy(),
    )
    await user.selectOptions(departmentFilter, 'Хирургия')
    await waitFor(() => expect(rowNames('Специалисты')).toEqual(['Анна']))
    await user.click(screen.getByRole('switch', { name: 'Специалист Анна активен' }))
    await waitFor(async () =>
      expect((await db.specialist.filter((row) => row.name === 'Анна').first())?.enabled).toBe(
        false,
      ),
    )
  })

  it('shows the field messages of a change the server refused under their fields', async () => {
    const ws = await createWorkspace('Клиника')
    await setCurrentWorkspace(ws)
    await db.department.put({ id: 7, workspace_id: ws, name: 'Терапия', description: '' })
    await db.outbox.add({
      key: 'refused-1',
      table: 'department',
      ck: '7',
      op: 'update',
      payload: { name: ' ' },
      state: 'parked',
      attempts: 0,
      nextAttemptAt: 0,
      sent: true,
      message: 'Проверьте введённые данные',
      code: 'validation_error',
      fields: { name: 'required' },
      label: 'Терапия',
      createdAt: Date.now(),
    })
    await renderInApp(() => <DepartmentEditPage id={7} />)
    expect(await screen.findByTestId('parked-notice')).toHaveTextContent(
      'Проверьте введённые данные',
    )
    const name = await screen.findByRole('textbox', { name: /Название/ })
    await waitFor(() => expect(name).toHaveAccessibleDescription(/Заполните поле/))
  })

  it('follows a record made offline to its server id', async () => {
    const ws = await createWorkspace('Клиника')
    await setCurrentWorkspace(ws)
    const local = await createRecord('specialist', ws, {
      name: 'Вера',
      position: 'врач',
      department_id: null,
      location_id: null,
      phone: '',
      email: '',
      photo_url: '',
      description: '',
    })
    function Page() {
      const id = Number(
        useRouterState({ select: (s) => s.location.pathname })
          .split('/')
          .pop(),
      )
      return <SpecialistEditPage id={id} />
    }
    const { router } = await renderInApp(
      () => (
        <>
          <ConfirmHost />
          <Page />
        </>
      ),
      `/specialist/${local}`,
    )
    const user = userEvent.setup()
    await user.type(await screen.findByDisplayValue('врач'), '-терапевт')
    expect(screen.getByDisplayValue('врач-терапевт')).toBeInTheDocument()
    // What the sync engine does when the add returns id 77: re-key; the row keeps its client key.
    await db.transaction('rw', db.specialist, async () => {
      const row = await db.specialist.get(local)
      await db.specialist.put({ ...row!, id: 77 })
      await db.specialist.delete(local)
    })
    await waitFor(() => expect(router.state.location.pathname).toBe('/specialist/77'))
    // The unsaved edit survives the move and no leave warning was asked.
    expect(await screen.findByDisplayValue('врач-терапевт')).toBeInTheDocument()
    expect(screen.queryByText('Уйти без сохранения?')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Сохранить' }))
    await waitFor(async () => expect((await db.specialist.get(77))?.position).toBe('врач-терапевт'))
  })
})
