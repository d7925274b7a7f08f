import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import { ProjectsPage } from '../../src/features/projects/projects-page.tsx'
import { noteAnswer } from '../../src/sync/reachability.ts'
import { publishProject } from '../../src/sync/mutators/publishing.ts'
import { createWorkspace, setCurrentWorkspace } from '../../src/sync/mutators/workspaces.ts'
import { renderInApp } from './helpers/render-app.tsx'

/**
 * The publish dialog on the projects list (docs/screens.md "Publishing"): it loads on demand into a
 * page drawn without Mantine, checks the address before queueing, queues the address and the
 * publish, says it waits for the network, and shows a refused address under its field.
 */

let db: MirrorDb
let n = 0
let ws: number
beforeEach(async () => {
  n += 1
  db = new MirrorDb(`publish-dialog-${n}`)
  setDb(db)
  act(() => i18n.activate('ru'))
  ws = await createWorkspace('Клиника')
  await setCurrentWorkspace(ws)
  await db.mirror('projects').put({
    id: 5,
    ck: '5',
    workspace_id: ws,
    version: 1,
    name: 'Акция',
    type: 1,
    updated_at: '2026-05-01T10:00:00.000Z',
    published: null,
    slug: null,
  })
})
afterEach(() => {
  act(() => noteAnswer(true))
  document.body.innerHTML = ''
})

const ops = async () =>
  (await db.outbox.orderBy('seq').toArray())
    .filter((e) => e.table === 'projects')
    .map((e) => [e.op, e.payload])

async function openDialog() {
  await renderInApp(() => <ProjectsPage />, '/projects', { mantine: false })
  const list = await screen.findByRole('list', { name: 'Проекты' })
  await waitFor(() => expect(within(list).getByText('Не опубликован')).toBeInTheDocument())
  const user = userEvent.setup()
  await user.click(screen.getByRole('button', { name: 'Опубликовать Акция' }))
  const dialog = await screen.findByRole(
    'dialog',
    { name: 'Публикация страницы' },
    // The dialog's chunk and Mantine load on the first open.
    { timeout: 15_000 },
  )
  return { user, dialog, list }
}

describe('the publish dialog', () => {
  it('checks the address first, then queues it and the publish; offline it says it waits', async () => {
    act(() => noteAnswer(false))
    const { user, dialog, list } = await openDialog()
    const field = await within(dialog).findByRole('textbox', { name: 'Адрес страницы' })
    // The address the name reads as, on this origin.
    expect(field).toHaveValue('akciya')
    expect(field).toHaveAccessibleDescription(`${location.origin}/p/akciya`)
    await user.clear(field)
    await user.type(field, 'ab')
    await user.click(within(dialog).getByRole('button', { name: 'Опубликовать' }))
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining('От 3 до 60 символов') as unknown as string,
    )
    expect(await ops()).toEqual([])

    await user.clear(field)
    await user.type(field, 'Leto-2026')
    await user.click(within(dialog).getByRole('button', { name: 'Опубликовать' }))
    await waitFor(async () =>
      expect(await ops()).toEqual([
        ['set_slug', { slug: 'leto-2026' }],
        ['publish', {}],
      ]),
    )
    expect(await within(dialog).findByTestId('publish-progress')).toHaveTextContent(
      'Опубликуется, когда появится связь',
    )
    // Optimistically published: the address, its QR code, the link to open.
    expect(within(dialog).getByTestId('publish-state')).toHaveTextContent('Опубликован')
    expect(within(dialog).getByTestId('page-url')).toHaveAttribute(
      'href',
      `${location.origin}/p/leto-2026`,
    )
    expect(within(dialog).getByRole('img', { name: 'QR-код адреса страницы' })).toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'Открыть' })).toHaveAttribute(
      'target',
      '_blank',
    )
    // The list says the same.
    expect(within(list).getByText('Опубликуется, когда появится связь')).toBeInTheDocument()
  })

  it('an address nobody chose is left to the server: no claim of it, no QR code until it answers', async () => {
    act(() => noteAnswer(false))
    const { user, dialog } = await openDialog()
    const field = await within(dialog).findByRole('textbox', { name: 'Адрес страницы' })
    expect(field).toHaveValue('akciya')
    await user.click(within(dialog).getByRole('button', { name: 'Опубликовать' }))
    // Only the publish: the server gives the name's address, or it with a suffix when it is taken.
    await waitFor(async () => expect(await ops()).toEqual([['publish', {}]]))
    expect(await within(dialog).findByTestId('publish-address-pending')).toBeInTheDocument()
    expect(within(dialog).queryByTestId('page-url')).toBeNull()
    expect(within(dialog).queryByRole('img', { name: 'QR-код адреса страницы' })).toBeNull()
    expect(field).toHaveAccessibleDescription(`${location.origin}/p/akciya`)
    // The server's answer gives the address: the link and its QR code appear.
    await db.projects.update(5, {
      slug: 'akciya-k3f9',
      published: {
        slug: 'akciya-k3f9',
        url: `${location.origin}/p/akciya-k3f9`,
        published_at: '2026-05-01T10:00:00.000Z',
        changed_since: false,
      },
    })
    await waitFor(() =>
      expect(within(dialog).getByTestId('page-url')).toHaveAttribute(
        'href',
        `${location.origin}/p/akciya-k3f9`,
      ),
    )
    expect(within(dialog).queryByTestId('publish-address-pending')).toBeNull()
  })

  it('shows a refused address under its field and takes the page down on request', async () => {
    await publishProject(5, 'zanyato')
    // The server refused the address (409 slug_taken: another page holds it): the entry is parked.
    const refused = (await db.outbox.toArray()).find((e) => e.op === 'set_slug')!
    await db.outbox.update(refused.seq!, {
      state: 'parked',
      sent: true,
      code: 'slug_taken',
      message: 'Адрес занят',
      fields: { slug: 'Этот адрес уже занят другой страницей' },
    })
    const { user, dialog } = await openDialogPublished()
    const field = await within(dialog).findByRole('textbox', { name: 'Адрес страницы' })
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'))
    expect(field).toHaveAccessibleDescription(
      expect.stringContaining('Этот адрес уже занят другой страницей') as unknown as string,
    )
    // Typing a new one clears the message; saving it takes the refused entry's place.
    await user.clear(field)
    await user.type(field, 'svobodno')
    expect(field).not.toHaveAttribute('aria-invalid')
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить адрес' }))
    await waitFor(async () =>
      expect(await ops()).toEqual([
        ['set_slug', { slug: 'svobodno' }],
        ['publish', {}],
      ]),
    )
    expect((await db.outbox.get(refused.seq!))?.state).toBe('pending')

    await user.click(within(dialog).getByRole('button', { name: 'Снять с публикации' }))
    await waitFor(async () => expect((await ops()).at(-1)).toEqual(['unpublish', {}]))
    await waitFor(() =>
      expect(within(dialog).getByTestId('publish-state')).toHaveTextContent('Не опубликован'),
    )
  })
})

async function openDialogPublished() {
  await renderInApp(() => <ProjectsPage />, '/projects', { mantine: false })
  const list = await screen.findByRole('list', { name: 'Проекты' })
  await waitFor(() => expect(within(list).getByText('Публикуется…')).toBeInTheDocument())
  const user = userEvent.setup()
  await user.click(screen.getByRole('button', { name: 'Опубликовать Акция' }))
  const dialog = await screen.findByRole(
    'dialog',
    { name: 'Публикация страницы' },
    // The dialog's chunk and Mantine load on the first open.
    { timeout: 15_000 },
  )
  return { user, dialog }
}
