import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appUrl,
  expectShell,
  goOffline,
  goOnline,
  navLink,
  waitForServiceWorker,
} from './helpers/app.ts'
import { maskWebhookUrl } from '../../src/domain/integration.ts'
import { launchBrowser, type BrowserSession } from './helpers/browser.ts'
import { api, signInFreshUser, type FreshUser } from './helpers/user.ts'

// One browser for the file (the service worker installs once); every journey signs in a new
// account of its own, so none depends on another or on the demo data.
let browser: BrowserSession
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  page = browser.page
  await signInFreshUser(page)
  await waitForServiceWorker(page)
})

afterAll(async () => {
  await browser?.close()
})

interface Row {
  id: number
  name: string
  enabled?: boolean
  [field: string]: unknown
}

type Kind = 'department' | 'location' | 'specialist' | 'amo' | 'bitrix'

/** The server's records of a kind in the user's workspace. */
function serverList(user: FreshUser, kind: Kind, workspaceId = user.workspaceId) {
  return api<Row[]>(user.token, `${kind}/list?workspace_id=${workspaceId}`)
}

/** Polls the server until `check` holds: the outbox replays a moment after the screen changes. */
async function serverAgrees(
  user: FreshUser,
  kind: Kind,
  check: (rows: Row[]) => boolean,
): Promise<Row[]> {
  let rows: Row[] = []
  await expect
    .poll(
      async () => {
        rows = await serverList(user, kind)
        return check(rows)
      },
      { timeout: 10_000, interval: 150 },
    )
    .toBe(true)
  return rows
}

/** A row of the visible list, found by the text it shows. */
function row(list: string, text: string): Locator {
  return page.getByRole('list', { name: list }).getByRole('listitem').filter({ hasText: text })
}

/** The form's field by its name attribute (Mantine labels carry a required asterisk). */
function field(name: string): Locator {
  return page.locator(`form [name="${name}"]:not([type="hidden"])`)
}

async function confirmDeletion(): Promise<void> {
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Удалить', exact: true }).click()
  await dialog.waitFor({ state: 'detached' })
}

/** Picks `option` in a Mantine Select found by its label. */
async function pick(label: string, option: string): Promise<void> {
  await page.locator('form').getByLabel(label, { exact: true }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

async function save(label = 'Сохранить'): Promise<void> {
  await page.locator('form').getByRole('button', { name: label, exact: true }).click()
}

/** Opens the record of a row (the row's main area, not its action buttons). */
async function openRow(list: string, text: string): Promise<void> {
  await row(list, text).getByRole('button').first().click()
}

const pendingMark = (locator: Locator) => locator.locator('[data-sync-mark="pending"]')

describe('directory online', () => {
  it('department: create, edit, delete, and the server agrees at each step', async () => {
    const user = await signInFreshUser(page)
    await navLink(page, 'Отделения').click()
    await page.getByText('Отделений пока нет').waitFor()
    await page.getByRole('link', { name: 'Добавить отделение' }).first().click()
    await field('name').fill('Терапия')
    await field('description').fill('Первый этаж')
    await save('Добавить')
    await page.waitForURL((url) => url.pathname === '/department')
    await row('Отделения', 'Терапия').waitFor()
    let rows = await serverAgrees(user, 'department', (r) => r.length === 1)
    expect(rows[0]).toMatchObject({ name: 'Терапия', description: 'Первый этаж' })

    await openRow('Отделения', 'Терапия')
    await page.waitForURL((url) => /^\/department\/\d+$/.test(url.pathname))
    await field('name').fill('Терапия взрослая')
    await save()
    await row('Отделения', 'Терапия взрослая').waitFor()
    rows = await serverAgrees(user, 'department', (r) => r[0]?.name === 'Терапия взрослая')
    expect(rows).toHaveLength(1)

    await page.getByRole('button', { name: 'Удалить Терапия взрослая' }).click()
    await confirmDeletion()
    await page.getByText('Отделений пока нет').waitFor()
    await serverAgrees(user, 'department', (r) => r.length === 0)
  })

  it('location: create, edit, delete, and the server agrees at each step', async () => {
    const user = await signInFreshUser(page)
    await navLink(page, 'Локации').click()
    await page.getByText('Локаций пока нет').waitFor()
    await page.getByRole('link', { name: 'Добавить локацию' }).first().click()
    await field('name').fill('Клиника на Ленина')
    await field('address').fill('ул. Ленина, 1')
    await field('phone').fill('+7 495 123-45-67')
    await save('Добавить')
    await row('Локации', 'Клиника на Ленина').waitFor()
    let rows = await serverAgrees(user, 'location', (r) => r.length === 1)
    expect(rows[0]).toMatchObject({ address: 'ул. Ленина, 1', phone: '+7 495 123-45-67' })

    await openRow('Локации', 'Клиника на Ленина')
    await field('address').fill('ул. Ленина, 3')
    await save()
    await row('Локации', 'ул. Ленина, 3').waitFor()
    rows = await serverAgrees(user, 'location', (r) => r[0]?.address === 'ул. Ленина, 3')
    expect(rows[0]?.name).toBe('Клиника на Ленина')

    await page.getByRole('button', { name: 'Удалить Клиника на Ленина' }).click()
    await confirmDeletion()
    await page.getByText('Локаций пока нет').waitFor()
    await serverAgrees(user, 'location', (r) => r.length === 0)
  })

  it('specialist: create with department and location, edit, disable, enable, delete', async () => {
    const user = await signInFreshUser(page)
    const ws = user.workspaceId
    const department = await api<Row>(user.token, 'department/add', {
      workspace_id: ws,
      name: 'Хирургия',
      description: '',
    })
    const location = await api<Row>(user.token, 'location/add', {
      workspace_id: ws,
      name: 'Филиал Север',
      address: '',
      phone: '',
    })
    await navLink(page, 'Специалисты').click()
    await page.getByText('Специалистов пока нет').waitFor()
    await page.getByRole('link', { name: 'Добавить специалиста' }).first().click()
    await field('name').fill('Иванова Анна')
    await field('position').fill('хирург')
    await pick('Отделение', 'Хирургия')
    await pick('Локация', 'Филиал Север')
    await save('Добавить')
    await row('Специалисты', 'Иванова Анна').waitFor()
    await row('Специалисты', 'Хирургия').waitFor()
    let rows = await serverAgrees(user, 'specialist', (r) => r.length === 1)
    expect(rows[0]).toMatchObject({
      name: 'Иванова Анна',
      position: 'хирург',
      department_id: department.id,
      location_id: location.id,
      enabled: true,
    })

    // Edit and switch off from the form.
    await openRow('Специалисты', 'Иванова Анна')
    await field('position').fill('главный хирург')
    await page.getByRole('switch', { name: 'Специалист активен' }).click({ force: true })
    await save()
    await row('Специалисты', 'главный хирург').waitFor()
    rows = await serverAgrees(
      user,
      'specialist',
      (r) => r[0]?.position === 'главный хирург' && r[0]?.enabled === false,
    )
    expect(rows[0]?.department_id).toBe(department.id)

    // Back on from the list's switch.
    await page
      .getByRole('switch', { name: 'Специалист Иванова Анна активен', checked: false })
      .click({ force: true })
    await page
      .getByRole('switch', { name: 'Специалист Иванова Анна активен', checked: true })
      .waitFor()
    await serverAgrees(user, 'specialist', (r) => r[0]?.enabled === true)

    await page.getByRole('button', { name: 'Удалить Иванова Анна' }).click()
    await confirmDeletion()
    await page.getByText('Специалистов пока нет').waitFor()
    await serverAgrees(user, 'specialist', (r) => r.length === 0)
  })

  it('amoCRM: connect, edit keeping the secret, disable, enable, delete', async () => {
    const user = await signInFreshUser(page)
    await page.goto(appUrl('/integrations/add'))
    await page.getByRole('button', { name: 'amoCRM', exact: true }).click()
    await field('name').fill('Основная воронка')
    await field('subdomain').fill('clinic')
    await field('client_id').fill('client-123')
    await field('client_secret').fill('secret-abcdef')
    await field('redirect_uri').fill('https://clinic.example.ru/amo')
    await save('Подключить')
    await page.waitForURL((url) => url.pathname === '/integrations/amo')
    await row('Интеграции amoCRM', 'Основная воронка').waitFor()
    let rows = await serverAgrees(user, 'amo', (r) => r.length === 1)
    expect(rows[0]).toMatchObject({ subdomain: 'clinic', client_id: 'client-123', enabled: true })

    await openRow('Интеграции amoCRM', 'Основная воронка')
    await field('name').fill('Воронка лендингов')
    await page.getByRole('switch', { name: 'Интеграция включена' }).click({ force: true })
    await save()
    await row('Интеграции amoCRM', 'Воронка лендингов').waitFor()
    rows = await serverAgrees(
      user,
      'amo',
      (r) => r[0]?.name === 'Воронка лендингов' && r[0]?.enabled === false,
    )
    // The secret was not retyped: the server still has it (shown masked, ending in its last four).
    expect(String(rows[0]?.client_secret)).toMatch(/cdef$/)

    await page
      .getByRole('switch', { name: 'Интеграция Воронка лендингов включена', checked: false })
      .click({ force: true })
    await serverAgrees(user, 'amo', (r) => r[0]?.enabled === true)

    await page.getByRole('button', { name: 'Удалить Воронка лендингов' }).click()
    await confirmDeletion()
    await page.getByText('Интеграций amoCRM пока нет').waitFor()
    await serverAgrees(user, 'amo', (r) => r.length === 0)
  })

  it('Bitrix24: connect, edit, disable, enable, delete', async () => {
    const user = await signInFreshUser(page)
    await page.goto(appUrl('/integrations/add'))
    await page.getByRole('button', { name: 'Bitrix24', exact: true }).click()
    await field('name').fill('Портал клиники')
    await field('portal_url').fill('https://clinic.bitrix24.ru')
    await field('webhook_url').fill('https://clinic.bitrix24.ru/rest/1/key/')
    await save('Подключить')
    await page.waitForURL((url) => url.pathname === '/integrations/bitrix')
    await row('Интеграции Bitrix24', 'Портал клиники').waitFor()
    let rows = await serverAgrees(user, 'bitrix', (r) => r.length === 1)
    expect(rows[0]).toMatchObject({ portal_url: 'https://clinic.bitrix24.ru', enabled: true })

    await openRow('Интеграции Bitrix24', 'Портал клиники')
    // The stored webhook is shown masked; «Заменить» asks for a new one.
    await page.getByRole('button', { name: 'Заменить' }).click()
    await field('webhook_url').fill('https://clinic.bitrix24.ru/rest/2/newkey99/')
    await save()
    await page.waitForURL((url) => url.pathname === '/integrations/bitrix')
    const webhook = maskWebhookUrl('https://clinic.bitrix24.ru/rest/2/newkey99/')
    rows = await serverAgrees(user, 'bitrix', (r) => r[0]?.webhook_url === webhook)
    expect(rows[0]?.name).toBe('Портал клиники')

    await page
      .getByRole('switch', { name: 'Интеграция Портал клиники включена', checked: true })
      .click({ force: true })
    await page
      .getByRole('switch', { name: 'Интеграция Портал клиники включена', checked: false })
      .waitFor()
    await serverAgrees(user, 'bitrix', (r) => r[0]?.enabled === false)
    await page
      .getByRole('switch', { name: 'Интеграция Портал клиники включена', checked: false })
      .click({ force: true })
    await serverAgrees(user, 'bitrix', (r) => r[0]?.enabled === true)

    await page.getByRole('button', { name: 'Удалить Портал клиники' }).click()
    await confirmDeletion()
    await page.getByText('Интеграций Bitrix24 пока нет').waitFor()
    await serverAgrees(user, 'bitrix', (r) => r.length === 0)
  })
})

describe('directory offline', () => {
  it('changes made with no network show at once as pending, survive a reload, and reach the server', async () => {
    const user = await signInFreshUser(page)
    const ws = user.workspaceId
    const location = await api<Row>(user.token, 'location/add', {
      workspace_id: ws,
      name: 'Филиал Юг',
      address: 'пр. Мира, 5',
      phone: '',
    })
    const bitrix = await api<Row>(user.token, 'bitrix/add', {
      workspace_id: ws,
      name: 'Портал Юг',
      portal_url: 'https://south.bitrix24.ru',
      webhook_url: 'https://south.bitrix24.ru/rest/1/key/',
    })
    // The first online visits fill the mirror with what the server holds.
    await page.goto(appUrl('/locations'))
    await row('Локации', 'Филиал Юг').waitFor()
    await page.goto(appUrl('/integrations/bitrix'))
    await row('Интеграции Bitrix24', 'Портал Юг').waitFor()
    await waitForServiceWorker(page)

    await goOffline(browser.context)
    try {
      await page.goto(appUrl('/department/add'))
      await field('name').fill('Неврология')
      await save('Добавить')
      await pendingMark(row('Отделения', 'Неврология')).waitFor()

      await page.goto(appUrl('/specialist/add'))
      await field('name').fill('Петров Олег')
      await pick('Отделение', 'Неврология')
      await save('Добавить')
      await pendingMark(row('Специалисты', 'Петров Олег')).waitFor()
      await row('Специалисты', 'Неврология').waitFor()

      await navLink(page, 'Локации').click()
      await openRow('Локации', 'Филиал Юг')
      await field('address').fill('пр. Мира, 7')
      await save()
      await pendingMark(row('Локации', 'пр. Мира, 7')).waitFor()

      await page.goto(appUrl('/integrations/bitrix'))
      await page
        .getByRole('switch', { name: 'Интеграция Портал Юг включена', checked: true })
        .click({ force: true })
      await pendingMark(row('Интеграции Bitrix24', 'Портал Юг')).waitFor()

      // A reload with no network: the changes are still there, still waiting.
      await page.reload()
      await expectShell(page, 'Интеграции')
      await pendingMark(row('Интеграции Bitrix24', 'Портал Юг')).waitFor()
      await page
        .getByRole('switch', { name: 'Интеграция Портал Юг включена', checked: false })
        .waitFor()
      await navLink(page, 'Специалисты').click()
      await pendingMark(row('Специалисты', 'Петров Олег')).waitFor()
      await navLink(page, 'Отделения').click()
      await pendingMark(row('Отделения', 'Неврология')).waitFor()
      await navLink(page, 'Локации').click()
      await pendingMark(row('Локации', 'пр. Мира, 7')).waitFor()
      // Nothing has reached the server yet.
      expect(await serverList(user, 'department')).toEqual([])
    } finally {
      await goOnline(browser.context)
    }

    // Back online: the marks go away and the server holds exactly those changes.
    await pendingMark(row('Локации', 'пр. Мира, 7')).waitFor({ state: 'detached' })
    await navLink(page, 'Специалисты').click()
    await row('Специалисты', 'Петров Олег').waitFor()
    await expect.poll(() => page.locator('[data-sync-mark]').count()).toBe(0)

    const departments = await serverAgrees(user, 'department', (r) => r.length === 1)
    expect(departments[0]).toMatchObject({ name: 'Неврология' })
    const specialists = await serverAgrees(user, 'specialist', (r) => r.length === 1)
    expect(specialists[0]).toMatchObject({
      name: 'Петров Олег',
      department_id: departments[0]?.id,
      location_id: null,
    })
    // Each changed once since it was made: version 2 (docs/API.md, "Versions").
    expect(await serverList(user, 'location')).toEqual([
      { ...location, address: 'пр. Мира, 7', version: 2 },
    ])
    const bitrixRows = await serverAgrees(user, 'bitrix', (r) => r[0]?.enabled === false)
    expect(bitrixRows).toEqual([{ ...bitrix, enabled: false, version: 2 }])
  })
})

describe('workspaces', () => {
  it('switching the workspace changes every list', async () => {
    const user = await signInFreshUser(page)
    const ws = user.workspaceId
    const token = user.token
    await api(token, 'project/add', { workspace_id: ws, name: 'Проект первого' })
    await api(token, 'department/add', {
      workspace_id: ws,
      name: 'Отделение первого',
      description: '',
    })
    await api(token, 'location/add', {
      workspace_id: ws,
      name: 'Локация первого',
      address: '',
      phone: '',
    })
    await api(token, 'specialist/add', {
      workspace_id: ws,
      name: 'Специалист первого',
      position: '',
      department_id: null,
      location_id: null,
      phone: '',
      email: '',
      photo_url: '',
      description: '',
    })
    await api(token, 'amo/add', {
      workspace_id: ws,
      name: 'amo первого',
      subdomain: 'first',
      client_id: 'id-1',
      client_secret: 'secret-1',
      redirect_uri: 'https://first.example.ru/',
    })
    await api(token, 'bitrix/add', {
      workspace_id: ws,
      name: 'bitrix первого',
      portal_url: 'https://first.bitrix24.ru',
      webhook_url: 'https://first.bitrix24.ru/rest/1/k/',
    })

    const lists = [
      { section: 'Проекты', path: '/projects', list: 'Проекты', name: 'Проект первого' },
      { section: 'Отделения', path: '/department', list: 'Отделения', name: 'Отделение первого' },
      { section: 'Локации', path: '/locations', list: 'Локации', name: 'Локация первого' },
      {
        section: 'Специалисты',
        path: '/specialist',
        list: 'Специалисты',
        name: 'Специалист первого',
      },
      {
        section: 'Интеграции',
        path: '/integrations/amo',
        list: 'Интеграции amoCRM',
        name: 'amo первого',
      },
      {
        section: 'Интеграции',
        path: '/integrations/bitrix',
        list: 'Интеграции Bitrix24',
        name: 'bitrix первого',
      },
    ]
    const expectLists = async (holdsRecords: boolean) => {
      for (const item of lists) {
        await page.goto(appUrl(item.path))
        await expectShell(page, item.section)
        if (holdsRecords) await row(item.list, item.name).waitFor()
        else {
          await page
            .getByText(/пока нет/)
            .first()
            .waitFor()
          expect(await page.getByText(item.name).count()).toBe(0)
        }
      }
    }
    await expectLists(true)

    // A second workspace through the manager in the top bar.
    await page.getByRole('button', { name: 'Управлять пространствами' }).click()
    const manager = page.getByRole('dialog', { name: 'Рабочие пространства' })
    await manager.getByRole('textbox', { name: 'Новое пространство' }).fill('Второй филиал')
    await manager.getByRole('button', { name: 'Добавить', exact: true }).click()
    await manager.getByText('Второй филиал').waitFor()
    await page.keyboard.press('Escape')
    await manager.waitFor({ state: 'detached' })
    await expect
      .poll(() => api<Row[]>(token, 'workspace/list').then((r) => r.map((w) => w.name)))
      .toEqual(['Моё пространство', 'Второй филиал'])

    // Switch on the Bitrix24 list, where the last check left off; the list on screen follows at
    // once, and only then is the choice surely stored for the reloads of the next checks.
    const bitrixRow = row('Интеграции Bitrix24', 'bitrix первого')
    const switchTo = (name: string) =>
      page.getByRole('combobox', { name: 'Рабочее пространство' }).selectOption({ label: name })
    await switchTo('Второй филиал')
    await bitrixRow.waitFor({ state: 'detached' })
    await page.getByText('Интеграций Bitrix24 пока нет').waitFor()
    await expectLists(false)

    await switchTo('Моё пространство')
    await bitrixRow.waitFor()
    await expectLists(true)
  })
})

describe('projects', () => {
  it('add, rename in place, copy, delete, then choose the type of a project without one', async () => {
    const user = await signInFreshUser(page)
    const projects = () =>
      api<(Row & { type: number | null })[]>(
        user.token,
        `project/list?workspace_id=${user.workspaceId}`,
      )
    const serverProjects = async (check: (rows: Row[]) => boolean) => {
      let rows: (Row & { type: number | null })[] = []
      await expect
        .poll(
          async () => {
            rows = await projects()
            return check(rows)
          },
          { timeout: 10_000, interval: 150 },
        )
        .toBe(true)
      return rows
    }

    await page.getByText('Проектов пока нет').waitFor()
    await page.getByRole('button', { name: 'Новый проект' }).first().click()
    await page.getByRole('textbox', { name: 'Название нового проекта' }).fill('Акция весна')
    await page.getByRole('button', { name: 'Создать', exact: true }).click()
    // A new project has no type yet: it opens on the type choice.
    await page.waitForURL((url) => /^\/project\/-?\d+\/type$/.test(url.pathname))
    let rows = await serverProjects((r) => r.length === 1)
    expect(rows[0]).toMatchObject({ name: 'Акция весна', type: null })

    await navLink(page, 'Проекты').click()
    await row('Проекты', 'Акция весна').getByText('Тип не выбран').waitFor()
    await page.getByRole('button', { name: 'Переименовать Акция весна' }).click()
    await page.getByRole('textbox', { name: 'Название проекта' }).fill('Акция лето')
    await page.getByRole('button', { name: 'Сохранить название' }).click()
    await row('Проекты', 'Акция лето').waitFor()
    rows = await serverProjects((r) => r[0]?.name === 'Акция лето')

    await page.getByRole('button', { name: 'Копировать Акция лето' }).click()
    await row('Проекты', 'Акция лето (копия)').waitFor()
    rows = await serverProjects((r) => r.length === 2)
    expect(rows.map((p) => p.name).sort()).toEqual(['Акция лето', 'Акция лето (копия)'])

    await page.getByRole('button', { name: 'Удалить Акция лето (копия)' }).click()
    await confirmDeletion()
    await row('Проекты', 'Акция лето (копия)').waitFor({ state: 'detached' })
    rows = await serverProjects((r) => r.length === 1)
    const id = rows[0]?.id
    expect(rows[0]?.name).toBe('Акция лето')

    await openRow('Проекты', 'Акция лето')
    await page.waitForURL((url) => url.pathname === `/project/${id}/type`)
    await page.getByRole('button', { name: /Лендинг/ }).click()
    await page.waitForURL((url) => url.pathname === `/projects/${id}/edit/type-1`)
    rows = await serverProjects((r) => r[0]?.type === 1)
  })
})
