import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appUrl,
  expectShell,
  goOffline,
  goOnline,
  signIn,
  waitForServiceWorker,
} from './helpers/app.ts'
import { launchBrowser, type BrowserSession } from './helpers/browser.ts'
import { apiGet, apiPost, registerUser, type TestUser } from './helpers/editor.ts'

// Two people on one workspace, each in a browser of their own (docs/SYNC.md, "Conflicts" and
// "Live changes"): the admin who owns it and an editor the admin invited by e-mail, who accepted.
let admin: TestUser
let editor: TestUser
let workspaceId: number
let adminBrowser: BrowserSession
let editorBrowser: BrowserSession

interface Department {
  id: number
  name: string
  description: string
}

beforeAll(async () => {
  admin = await registerUser('team-admin')
  editor = await registerUser('team-editor')
  const [own] = await apiGet<{ id: number }[]>(admin, '/api/workspace/list')
  workspaceId = own!.id
  // Names decide which workspace opens first: the shared one for both.
  await apiPost(admin, '/api/workspace/update', { id: workspaceId, name: 'А-клиника' })
  const [editorsOwn] = await apiGet<{ id: number }[]>(editor, '/api/workspace/list')
  await apiPost(editor, '/api/workspace/update', { id: editorsOwn!.id, name: 'Я-черновики' })
  await join(workspaceId)
  adminBrowser = await launchBrowser()
  editorBrowser = await launchBrowser()
  await signIn(adminBrowser.page, admin)
  await signIn(editorBrowser.page, editor)
  // The editor works offline too: the service worker must serve the app by then.
  await waitForServiceWorker(editorBrowser.page)
}, 120_000)

afterAll(async () => {
  await adminBrowser?.close()
  await editorBrowser?.close()
})

async function department(name: string, description = ''): Promise<Department> {
  return apiPost<Department>(admin, '/api/department/add', {
    workspace_id: workspaceId,
    name,
    description,
  })
}

/** The admin invites the editor to a workspace of theirs, and the editor accepts (through the API). */
async function join(workspace: number): Promise<void> {
  await apiPost(admin, '/api/workspace/member/add', {
    workspace_id: workspace,
    email: editor.email,
  })
  const waiting = await apiGet<{ id: number; workspace_id: number }[]>(
    editor,
    '/api/workspace/invitations',
  )
  const invitation = waiting.find((i) => i.workspace_id === workspace)!
  await apiPost(editor, '/api/workspace/invitation/accept', { id: invitation.id })
}

async function editorsId(): Promise<number> {
  const members = await apiGet<{ user_id: number; email: string }[]>(
    admin,
    `/api/workspace/members?workspace_id=${workspaceId}`,
  )
  return members.find((m) => m.email === editor.email)!.user_id
}

const onServer = (id: number) => apiGet<Department>(admin, `/api/department/get?id=${id}`)

async function openForm(page: Page, id: number): Promise<void> {
  await page.goto(appUrl(`/department/${id}`))
  await page.getByLabel('Название').waitFor()
}

async function saveForm(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Сохранить' }).click()
  await page.waitForURL((url) => url.pathname === '/department')
}

describe('two people on one workspace', () => {
  it('a rename made by one appears on the other’s open list without a reload', async () => {
    const row = await department('Неврология')
    const { page } = editorBrowser
    await page.goto(appUrl('/department'))
    await expectShell(page, 'Отделения')
    await page.getByText('Неврология', { exact: true }).first().waitFor()
    const reloads: string[] = []
    page.on('framenavigated', (frame) => reloads.push(frame.url()))

    await adminBrowser.page.goto(appUrl('/department'))
    await adminBrowser.page.getByText('Неврология', { exact: true }).first().waitFor()
    await openForm(adminBrowser.page, row.id)
    await adminBrowser.page.getByLabel('Название').fill('Неврология и сон')
    await saveForm(adminBrowser.page)

    await page.getByText('Неврология и сон', { exact: true }).first().waitFor({ timeout: 10_000 })
    expect(reloads).toEqual([])
  })

  it('an offline edit colliding with a newer one ends as a conflict the person decides', async () => {
    const row = await department('Кардиология')
    const { page, context } = editorBrowser
    await page.goto(appUrl('/department'))
    await page.getByText('Кардиология', { exact: true }).first().waitFor()
    await goOffline(context)
    try {
      await openForm(page, row.id)
      await page.getByLabel('Название').fill('Кардиология (редактор)')
      await saveForm(page)
      // Meanwhile, online, the admin renames it.
      await apiPost(admin, '/api/department/update', { id: row.id, name: 'Кардиоцентр' })
    } finally {
      await goOnline(context)
    }
    // The server keeps the newer value; the editor is shown both.
    const status = page.getByTestId('sync-status')
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 20_000 }).toBe('parked')
    expect((await onServer(row.id)).name).toBe('Кардиоцентр')
    await status.click()
    const conflict = page.getByTestId('conflict-entry')
    await conflict.waitFor()
    expect(await conflict.getByTestId('conflict-mine').textContent()).toBe(
      '«Кардиология (редактор)»',
    )
    expect(await conflict.getByTestId('conflict-theirs').textContent()).toBe('«Кардиоцентр»')
    await conflict.getByRole('button', { name: 'Оставить моё' }).click()
    await expect
      .poll(async () => (await onServer(row.id)).name, { timeout: 20_000 })
      .toBe('Кардиология (редактор)')

    // The admin, whose name was replaced, is told at once in their sync panel: who, what, when.
    const other = adminBrowser.page
    const count = other.getByTestId('notices-count')
    await count.waitFor({ timeout: 10_000 })
    expect(await count.textContent()).toBe('1')
    await other.getByTestId('sync-status').click()
    const notice = other.getByTestId('notice')
    await notice.waitFor()
    const told = await notice.textContent()
    expect(told).toContain('Отделение «Кардиология (редактор)»')
    expect(told).toContain(`${editor.name} оставил(а) своё значение вместо вашего`)
    expect(told).toContain('Было ваше: «Кардиоцентр»Стало: «Кардиология (редактор)»')
    await notice.getByRole('button', { name: 'Понятно' }).click()
    await count.waitFor({ state: 'detached' })
    await other.keyboard.press('Escape')
    expect(await apiGet(admin, '/api/workspace/notices')).toEqual([])
  })

  it('edits of different fields made offline and online both survive', async () => {
    const row = await department('Педиатрия', 'Дети')
    const { page, context } = editorBrowser
    await page.goto(appUrl('/department'))
    await page.getByText('Педиатрия', { exact: true }).first().waitFor()
    await goOffline(context)
    try {
      await openForm(page, row.id)
      await page.getByLabel('Описание').fill('Дети до 18 лет')
      await saveForm(page)
      await apiPost(admin, '/api/department/update', { id: row.id, name: 'Детское отделение' })
    } finally {
      await goOnline(context)
    }
    await expect
      .poll(async () => onServer(row.id), { timeout: 20_000 })
      .toMatchObject({ name: 'Детское отделение', description: 'Дети до 18 лет' })
    await expect
      .poll(() => page.getByTestId('sync-status').getAttribute('data-state'), { timeout: 20_000 })
      .toBe('saved')
  })

  it('an invitation appears in the switcher as it is made; accepted, its workspace is there at once', async () => {
    const { page } = editorBrowser
    await page.goto(appUrl('/department'))
    await expectShell(page, 'Отделения')
    const reloads: string[] = []
    const onNavigated = (frame: { url(): string }) => reloads.push(frame.url())
    page.on('framenavigated', onNavigated)
    const other = await apiPost<{ id: number }>(admin, '/api/workspace/add', { name: 'Б-филиал' })
    await apiPost(admin, '/api/workspace/member/add', {
      workspace_id: other.id,
      email: editor.email,
    })
    // Told on the editor's own channel: no reload, no waiting for a periodic refresh.
    const button = page.getByTestId('invitations-button')
    await button.waitFor({ timeout: 10_000 })
    expect(await button.textContent()).toContain('Приглашения: 1')
    await button.click()
    const invitation = page.getByTestId('invitation')
    expect(await invitation.textContent()).toContain('приглашает вас в пространство «Б-филиал»')
    await invitation.getByRole('button', { name: 'Принять' }).click()
    const switcher = page.getByTestId('workspace-switcher')
    await expect
      .poll(() => switcher.locator('option:checked').textContent(), { timeout: 10_000 })
      .toBe('Б-филиал')
    await button.waitFor({ state: 'detached' })

    // Accepted elsewhere (another device): the workspace still appears here live.
    const third = await apiPost<{ id: number }>(admin, '/api/workspace/add', { name: 'В-склад' })
    await join(third.id)
    await expect
      .poll(() => switcher.locator('option').allTextContents(), { timeout: 10_000 })
      .toContain('В-склад')
    expect(reloads).toEqual([])
    page.off('framenavigated', onNavigated)
    // Back to the shared workspace for what follows.
    await switcher.selectOption({ label: 'А-клиника' })
    await expect.poll(() => switcher.locator('option:checked').textContent()).toBe('А-клиника')
  })

  it('a member removed while their tab is open is told within 2 s and moved to a workspace of theirs', async () => {
    const { page } = editorBrowser
    // The tab's stream of the workspace is open (answered) before the removal.
    const streaming = page.waitForResponse((response) =>
      response.url().includes(`/api/events?workspace_id=${workspaceId}`),
    )
    await page.goto(appUrl('/department'))
    await expectShell(page, 'Отделения')
    const switcher = page.getByTestId('workspace-switcher')
    await expect.poll(() => switcher.locator('option:checked').textContent()).toBe('А-клиника')
    expect((await streaming).status()).toBe(200)
    const notice = page.getByRole('dialog', { name: 'Вас убрали из пространства «А-клиника»' })
    await apiPost(admin, '/api/workspace/member/remove', {
      workspace_id: workspaceId,
      user_id: await editorsId(),
    })
    await notice.waitFor({ timeout: 2_000 })
    expect(await switcher.locator('option').allTextContents()).not.toContain('А-клиника')
    expect(await switcher.locator('option:checked').textContent()).not.toBe('А-клиника')
    // Nothing was queued: nothing to list, and nothing to retry.
    expect(await notice.getByTestId('discarded-changes').count()).toBe(0)
    await notice.getByRole('button', { name: 'Понятно' }).click()
    await notice.waitFor({ state: 'detached' })
  })

  it('changes still queued for a workspace the person was removed from are listed as discarded, never offered again', async () => {
    await join(workspaceId)
    const row = await department('Офтальмология')
    const { page, context } = editorBrowser
    const switcher = page.getByTestId('workspace-switcher')
    await expect
      .poll(() => switcher.locator('option').allTextContents(), { timeout: 10_000 })
      .toContain('А-клиника')
    await switcher.selectOption({ label: 'А-клиника' })
    await page.goto(appUrl('/department'))
    await page.getByText('Офтальмология', { exact: true }).first().waitFor()
    await goOffline(context)
    try {
      await openForm(page, row.id)
      await page.getByLabel('Название').fill('Офтальмология (редактор)')
      await saveForm(page)
      await apiPost(admin, '/api/workspace/member/remove', {
        workspace_id: workspaceId,
        user_id: await editorsId(),
      })
    } finally {
      await goOnline(context)
    }
    const notice = page.getByRole('dialog', { name: 'Вас убрали из пространства «А-клиника»' })
    await notice.waitFor({ timeout: 15_000 })
    const discarded = notice.getByTestId('discarded-changes')
    expect(await discarded.textContent()).toContain('Отделение «Офтальмология (редактор)»')
    await notice.getByRole('button', { name: 'Понятно' }).click()
    // Nothing is left to send, nor parked with «Повторить».
    await expect
      .poll(() => page.getByTestId('sync-status').getAttribute('data-state'), { timeout: 20_000 })
      .toBe('saved')
    expect(await page.getByRole('button', { name: 'Повторить' }).count()).toBe(0)
    expect((await onServer(row.id)).name).toBe('Офтальмология')
  })
})
