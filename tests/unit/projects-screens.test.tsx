import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useRouterState } from '@tanstack/react-router'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import { createProject, setProjectType } from '../../src/sync/mutators/projects.ts'
import { createRecord } from '../../src/sync/mutators/records.ts'
import { createWorkspace, setCurrentWorkspace } from '../../src/sync/mutators/workspaces.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import { ProjectTypePage } from '../../src/features/projects/project-type-page.tsx'
import { ProjectsPage } from '../../src/features/projects/projects-page.tsx'
import { WorkspaceManager } from '../../src/features/workspaces/workspace-manager.tsx'
import { ConfirmHost } from '../../src/ui/confirm.tsx'
import { defaultBlock } from '../../src/features/editor/model/block-shape.ts'

const BLOCK_TEXTS = {
  text: 'Текст',
  button: 'Кнопка',
  gift: 'Подарок',
  priceButton: 'Купить',
  subscribeAction: 'Записаться',
}
import { renderInApp } from './helpers/render-app.tsx'

let db: MirrorDb
let n = 0
beforeEach(() => {
  n += 1
  db = new MirrorDb(`projects-screens-${n}`)
  setDb(db)
  act(() => i18n.activate('ru'))
})
afterEach(() => {
  document.body.innerHTML = ''
})

async function workspace() {
  const id = await createWorkspace('Клиника')
  await setCurrentWorkspace(id)
  return id
}

describe('projects', () => {
  it('shows the first background as a cover, and a plain tile without one', async () => {
    const ws = await workspace()
    await db.projects.bulkPut([
      {
        id: 5,
        workspace_id: ws,
        name: 'С фоном',
        type: 1,
        updated_at: '2026-05-01T10:00:00.000Z',
        cover_url: '/uploads/a.png',
      },
      {
        id: 6,
        workspace_id: ws,
        name: 'Без фона',
        type: null,
        updated_at: '2026-05-01T10:00:00.000Z',
        cover_url: null,
      },
    ])
    await renderInApp(() => <ProjectsPage />, '/projects', { mantine: false })
    const list = await screen.findByRole('list', { name: 'Проекты' })
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2))
    const row = (name: string) =>
      within(list)
        .getAllByRole('listitem')
        .find((li) => li.textContent?.includes(name))!
    expect(row('С фоном').querySelector('img')?.getAttribute('src')).toBe('/uploads/a.png')
    expect(row('Без фона').querySelector('img')).toBeNull()
  })

  it('starts empty with a way forward, then creates a project and asks for its type', async () => {
    await workspace()
    const { router } = await renderInApp(() => <ProjectsPage />, '/projects', { mantine: false })
    const user = userEvent.setup()
    expect(await screen.findByText('Проектов пока нет')).toBeInTheDocument()
    await user.click(screen.getAllByRole('button', { name: 'Новый проект' })[0]!)
    await user.click(screen.getByRole('button', { name: 'Создать' }))
    expect(await screen.findByText('Заполните поле')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Название нового проекта'), 'Акция{Enter}')
    await waitFor(() => expect(router.state.location.pathname).toMatch(/^\/project\/-\d+\/type$/))
    expect((await db.projects.toArray()).map((p) => p.name)).toEqual(['Акция'])
  })

  it('asks before deleting: the dialog brings its own Mantine to a page drawn without it', async () => {
    const ws = await workspace()
    await createProject(ws, 'Старая акция')
    await renderInApp(
      () => (
        <>
          <ConfirmHost />
          <ProjectsPage />
        </>
      ),
      '/projects',
      { mantine: false },
    )
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Удалить Старая акция' }))
    const dialog = await screen.findByRole('dialog', { name: 'Удалить проект?' })
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(screen.getByText('Старая акция')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Удалить Старая акция' }))
    const again = await screen.findByRole('dialog', { name: 'Удалить проект?' })
    await user.click(within(again).getByRole('button', { name: 'Удалить' }))
    expect(await screen.findByText('Проектов пока нет')).toBeInTheDocument()
  })

  it('marks a refused rename for assistive technology and keeps the old name', async () => {
    const ws = await workspace()
    await createProject(ws, 'Весна')
    await renderInApp(() => <ProjectsPage />, '/projects', { mantine: false })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Переименовать Весна' }))
    const field = await screen.findByRole('textbox', { name: 'Название проекта' })
    await user.clear(field)
    await user.click(screen.getByRole('button', { name: 'Сохранить название' }))
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(field).toHaveAccessibleDescription('Заполните поле')
    await user.keyboard('{Escape}')
    expect(await screen.findByText('Весна')).toBeInTheDocument()
    expect((await db.projects.toArray()).map((p) => p.name)).toEqual(['Весна'])
  })

  it('renames in place, shows each type, and opens a project in its editor', async () => {
    const ws = await workspace()
    const typed = await createProject(ws, 'Сторис для весны')
    await setProjectType(typed, 2)
    await createProject(ws, 'Черновик')
    const { router } = await renderInApp(() => <ProjectsPage />, '/projects', { mantine: false })
    const user = userEvent.setup()
    const list = await screen.findByRole('list', { name: 'Проекты' })
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2))
    expect(within(list).getByText('Сторис')).toBeInTheDocument()
    expect(within(list).getByText('Тип не выбран')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Переименовать Черновик' }))
    const field = await screen.findByRole('textbox', { name: 'Название проекта' })
    await user.clear(field)
    await user.type(field, 'Лето{Enter}')
    await waitFor(async () =>
      expect((await db.projects.toArray()).map((p) => p.name).sort()).toEqual([
        'Лето',
        'Сторис для весны',
      ]),
    )

    await user.click(await screen.findByRole('button', { name: /^Сторис для весны/ }))
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/projects/${typed}/edit/type-2`),
    )
  })

  it('explains both types with a picture and sets the chosen one', async () => {
    const ws = await workspace()
    const id = await createProject(ws, 'Лендинг клиники')
    function Page() {
      const path = useRouterState({ select: (s) => s.location.pathname })
      return path.endsWith('/type') ? <ProjectTypePage id={id} /> : <p>editor</p>
    }
    const { router } = await renderInApp(() => <Page />, `/project/${id}/type`)
    const user = userEvent.setup()
    const landing = await screen.findByTestId('type-1')
    expect(within(landing).getByText('Лендинг')).toBeInTheDocument()
    expect(within(landing).getByText(/секции-фоны идут одна под другой/)).toBeInTheDocument()
    expect(landing.querySelector('svg')).not.toBeNull()
    expect(screen.getByTestId('type-2').querySelector('svg')).not.toBeNull()
    await user.click(landing)
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${id}/edit/type-1`))
    expect((await db.projects.get(id))?.type).toBe(1)
  })
  it('asks before changing the type of a project with content, and says what becomes of it', async () => {
    const ws = await workspace()
    const id = await createProject(ws, 'Акция')
    await setProjectType(id, 1)
    await db.backgrounds.bulkPut([
      {
        id: 41,
        ck: '41',
        project_id: id,
        version: 1,
        image_url: '/u/a.png',
        width: 1600,
        height: 900,
        position: 0,
      },
      {
        id: 42,
        ck: '42',
        project_id: id,
        version: 1,
        image_url: '/u/b.png',
        width: 1600,
        height: 900,
        position: 1,
      },
    ])
    await db.blocks.bulkPut(
      [1, 2, 3].map((n) => ({
        ...defaultBlock('text', 41, { width: 1600, height: 900 }, n, BLOCK_TEXTS),
        id: 60 + n,
        ck: String(60 + n),
        version: 1,
      })) as never,
    )
    function Page() {
      const path = useRouterState({ select: (s) => s.location.pathname })
      return path.endsWith('/type') ? <ProjectTypePage id={id} /> : <p>editor</p>
    }
    const { router } = await renderInApp(
      () => (
        <>
          <Page />
          <ConfirmHost />
        </>
      ),
      `/project/${id}/type`,
    )
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('type-2'))
    const question = await screen.findByRole('dialog', {
      name: 'Сменить тип проекта на «Сторис»?',
    })
    expect(question).toHaveTextContent(
      'В проекте 2 секции и 3 блока: ничего не удалится, блоки останутся на своих местах относительно фонов.',
    )
    expect(question).toHaveTextContent('Секции станут слайдами сторис')
    await user.click(within(question).getByRole('button', { name: 'Отмена' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect((await db.projects.get(id))?.type).toBe(1)
    expect(router.state.location.pathname).toBe(`/project/${id}/type`)

    // The type it has: no question, its editor opens.
    await user.click(screen.getByTestId('type-1'))
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${id}/edit/type-1`))
    expect(screen.queryByRole('dialog')).toBeNull()

    await act(() => router.navigate({ to: '/project/$id/type', params: { id: String(id) } }))
    await user.click(await screen.findByTestId('type-2'))
    const again = await screen.findByRole('dialog', { name: 'Сменить тип проекта на «Сторис»?' })
    await user.click(within(again).getByRole('button', { name: 'Сменить тип' }))
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${id}/edit/type-2`))
    expect((await db.projects.get(id))?.type).toBe(2)
  })
})

describe('workspace manager', () => {
  it('names the workspace and what it holds before deleting it', async () => {
    const ws = await workspace()
    await createProject(ws, 'Акция')
    await createRecord('department', ws, { name: 'Терапия', description: '' })
    await createRecord('amo', ws, {
      name: 'Воронка',
      subdomain: 'clinic',
      client_id: 'id',
      client_secret: 'secret',
      redirect_uri: 'https://clinic.ru/cb',
    })
    await renderInApp(() => (
      <>
        <ConfirmHost />
        <WorkspaceManager opened onClose={() => undefined} />
      </>
    ))
    const user = userEvent.setup()
    const remove = await screen.findByRole('button', { name: 'Удалить Клиника' })
    await waitFor(() => expect(remove).toBeEnabled())
    await user.click(remove)
    const dialog = await screen.findByRole('dialog', { name: 'Удалить пространство «Клиника»?' })
    await waitFor(() =>
      expect(dialog).toHaveTextContent(
        'В пространстве «Клиника»: 1 проект, 1 интеграция, 1 отделение. Пространство',
      ),
    )
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }))
    await waitFor(async () => expect(await db.workspaces.count()).toBe(0))
    expect(await db.projects.count()).toBe(0)
  })

  it('adds and renames a workspace, refusing an empty name', async () => {
    const onClose = vi.fn()
    await renderInApp(() => <WorkspaceManager opened onClose={onClose} />)
    const user = userEvent.setup()
    const name = await screen.findByLabelText('Новое пространство')
    await user.click(screen.getByRole('button', { name: 'Добавить' }))
    expect(await screen.findByText('Заполните поле')).toBeInTheDocument()
    await user.type(name, 'Салон{Enter}')
    await waitFor(async () =>
      expect((await db.workspaces.toArray()).map((w) => w.name)).toEqual(['Салон']),
    )
    await user.click(await screen.findByRole('button', { name: 'Переименовать Салон' }))
    const field = screen.getByRole('textbox', { name: 'Название пространства' })
    await user.clear(field)
    await user.type(field, 'Салон на Мира{Enter}')
    await waitFor(async () =>
      expect((await db.workspaces.toArray()).map((w) => w.name)).toEqual(['Салон на Мира']),
    )
    // Esc leaves the field and keeps the dialog and the name as they were.
    await user.click(await screen.findByRole('button', { name: 'Переименовать Салон на Мира' }))
    await user.type(screen.getByRole('textbox', { name: 'Название пространства' }), ' 2{Escape}')
    expect(screen.queryByRole('textbox', { name: 'Название пространства' })).toBeNull()
    expect(onClose).not.toHaveBeenCalled()
    expect((await db.workspaces.toArray()).map((w) => w.name)).toEqual(['Салон на Мира'])
  })
})
