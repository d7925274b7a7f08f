import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectShell, navLink, waitForServiceWorker } from './helpers/app.ts'
import { launchBrowser, type BrowserSession } from './helpers/browser.ts'
import { addBlockButton, layerItems, makePng, mirrorOutboxSize } from './helpers/editor.ts'
import {
  isWrite,
  settled,
  formField,
  listRow,
  signInThrough,
  startBrowserFaults,
  type BrowserFaults,
} from './helpers/faults.ts'
import { api, registerUser, type FreshUser } from './helpers/user.ts'

/**
 * The built app (page, sync worker, service worker) on a flaky network: the browser talks to a
 * fault proxy in front of the e2e server, which drops, duplicates, delays, refuses with 5xx/429 and
 * mangles the API's writes at a moderate rate (tests/e2e/helpers/faults.ts). After each journey the
 * outbox must empty, and what the SERVER holds (asked directly, not through the proxy) must be
 * exactly what the journey's own actions meant: nothing lost, nothing twice.
 */
let faults: BrowserFaults
let browser: BrowserSession
let page: Page
let user: FreshUser

beforeAll(async () => {
  faults = await startBrowserFaults()
  user = await registerUser()
  browser = await launchBrowser()
  page = browser.page
  await signInThrough(faults, page, user)
  await expectShell(page, 'Проекты')
  await waitForServiceWorker(page)
})

afterAll(async () => {
  await browser?.close()
  await faults?.proxy.close()
})

interface Row {
  id: number
  name: string
  [field: string]: unknown
}

const list = (kind: string) =>
  api<Row[]>(user.token, `${kind}/list?workspace_id=${user.workspaceId}`)
const names = async (kind: string) => (await list(kind)).map((r) => r.name).sort()

async function confirmDeletion(on: Page): Promise<void> {
  const dialog = on.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Удалить', exact: true }).click()
  await dialog.waitFor({ state: 'detached' })
}

async function addDepartment(on: Page, name: string): Promise<void> {
  await on.getByRole('link', { name: 'Добавить отделение' }).first().click()
  await on.waitForURL((url) => url.pathname === '/department/add')
  await formField(on, 'name').fill(name)
  await on.locator('form').getByRole('button', { name: 'Добавить', exact: true }).click()
  await on.waitForURL((url) => url.pathname === '/department')
  await listRow(on, 'Отделения', name).first().waitFor()
}

async function addSpecialist(on: Page, name: string, department: string): Promise<void> {
  await on.getByRole('link', { name: 'Добавить специалиста' }).first().click()
  await formField(on, 'name').fill(name)
  await formField(on, 'position').fill('терапевт')
  await on.locator('form').getByLabel('Отделение', { exact: true }).click()
  await on.getByRole('option', { name: department, exact: true }).click()
  await on.locator('form').getByRole('button', { name: 'Добавить', exact: true }).click()
  await listRow(on, 'Специалисты', name).first().waitFor()
}

/** Opens a row of a list, changes its name and saves. */
async function rename(on: Page, listName: string, from: string, to: string): Promise<void> {
  await listRow(on, listName, from).getByRole('button').first().click()
  await formField(on, 'name').fill(to)
  await on.locator('form').getByRole('button', { name: 'Сохранить', exact: true }).click()
  await listRow(on, listName, to).first().waitFor()
}

describe('the app on a flaky network', () => {
  it('directory: departments and specialists created, renamed and deleted while writes fail reach the server as meant', async () => {
    const fired = faults.storm()
    await navLink(page, 'Отделения').click()
    await addDepartment(page, 'Кардиология')
    await addDepartment(page, 'Неврология')
    await navLink(page, 'Специалисты').click()
    await addSpecialist(page, 'Петрова Мария', 'Кардиология')
    await addSpecialist(page, 'Сидоров Олег', 'Неврология')
    await rename(page, 'Специалисты', 'Петрова Мария', 'Петрова-Лебедева Мария')
    await page.getByRole('button', { name: 'Удалить Сидоров Олег' }).click()
    await confirmDeletion(page)
    await navLink(page, 'Отделения').click()
    await rename(page, 'Отделения', 'Кардиология', 'Кардиология детская')
    await page.getByRole('button', { name: 'Удалить Неврология' }).click()
    await confirmDeletion(page)

    await settled(faults, page)
    expect(fired()).toBeGreaterThan(0)
    const departments = await list('department')
    expect(departments.map((d) => d.name)).toEqual(['Кардиология детская'])
    const specialists = await list('specialist')
    expect(specialists.map((s) => [s.name, s.position, s.department_id])).toEqual([
      ['Петрова-Лебедева Мария', 'терапевт', departments[0]!.id],
    ])
  })

  it('both editors: blocks added, moved, recoloured, retyped and deleted while writes fail reach the server as meant', async () => {
    const fired = faults.storm()
    const meant: Record<string, Record<string, unknown>[]> = {}
    for (const type of [1, 2] as const) {
      const name = type === 1 ? 'Лендинг под помехами' : 'Истории под помехами'
      await page.goto(faults.url('/projects'))
      await page.getByRole('button', { name: 'Новый проект' }).first().click()
      await page.getByLabel('Название нового проекта').fill(name)
      await page.getByRole('button', { name: 'Создать', exact: true }).click()
      await page.waitForURL((url) => /^\/project\/-?\d+\/type$/.test(url.pathname))
      await page.locator(`[data-testid="type-${type}"]`).click()
      // The editor follows the project to its server id once its create went through (the page
      // moves to /projects/<id>/edit and the editor starts again): edit after that.
      await page.waitForURL((url) => /^\/projects\/\d+\/edit\/type-\d$/.test(url.pathname), {
        timeout: 30_000,
      })
      await page
        .getByText(type === 1 ? 'Добавьте первую секцию' : 'Добавьте первый слайд')
        .waitFor()
      await page
        .locator('input[type="file"]')
        .first()
        .setInputFiles({
          name: 'background.png',
          mimeType: 'image/png',
          buffer: type === 1 ? makePng(320, 180) : makePng(90, 160),
        })
      await page.locator('[data-testid="editor-canvas"][data-renderer]').waitFor()
      // Layers list front first: the last added on top.
      for (const label of ['Текст', 'Кнопка', 'Цена']) await addBlockButton(page, label).click()
      await expect.poll(() => layerItems(page).count()).toBe(3)
      // The text: new words, moved.
      await layerItems(page).nth(2).getByRole('button').first().click()
      const words = type === 1 ? 'Скидка 30% в ноябре' : 'Скидка для друзей'
      await page.getByRole('textbox', { name: 'Текст', exact: true }).fill(words)
      await page.getByRole('textbox', { name: 'Текст', exact: true }).blur()
      // X is per cent of the width from the left edge: 30 % is 40 units left of the centre.
      await page.getByLabel('X', { exact: true }).fill('30')
      await page.getByLabel('X', { exact: true }).blur()
      // The button: recoloured.
      await layerItems(page).nth(1).getByRole('button').first().click()
      await page.getByLabel('Цвет кнопки', { exact: true }).fill('#aa2233')
      await page.getByLabel('Цвет кнопки', { exact: true }).blur()
      // The price: deleted.
      await layerItems(page).nth(0).getByRole('button').first().click()
      await page.keyboard.press('Delete')
      await expect.poll(() => layerItems(page).count()).toBe(2)
      await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
      meant[name] = [
        { type: 'button', background: '#aa2233' },
        { type: 'text', text: words, x: -40 },
      ]
    }

    await settled(faults, page)
    expect(fired()).toBeGreaterThan(0)
    const held: Record<string, Record<string, unknown>[]> = {}
    for (const project of await api<Row[]>(
      user.token,
      `project/list?workspace_id=${user.workspaceId}`,
    )) {
      const full = await api<{ backgrounds: { id: number }[] }>(
        user.token,
        `project/get?project_id=${project.id}`,
      )
      expect(full.backgrounds, `${project.name}: one background`).toHaveLength(1)
      const blocks = await api<Row[]>(
        user.token,
        `project/get_items?bg_id=${full.backgrounds[0]!.id}`,
      )
      held[project.name] = blocks
        .map((b) =>
          b.type === 'text'
            ? { type: b.type, text: b.text, x: b.x }
            : { type: b.type, background: b.background },
        )
        .sort((a, b) => String(a.type).localeCompare(String(b.type)))
    }
    expect(held).toEqual(meant)
  })

  it('the page closed mid-chain: a new page finishes the queued changes, each once', async () => {
    const before = await names('department')
    await page.goto(faults.url('/department'))
    await expectShell(page, 'Отделения')
    // Queued offline, then mid-chain back online: the first write goes through, the second is
    // applied but its answer is lost, the rest never arrive; the page is closed then.
    let writes = 0
    faults.proxy.setPolicy((request) => {
      if (!isWrite(request)) return 'pass'
      writes += 1
      return writes === 1 ? 'pass' : writes === 2 ? 'drop-response' : 'drop-request'
    })
    const added = ['Отделение 1', 'Отделение 2', 'Отделение 3', 'Отделение 4']
    await browser.context.setOffline(true)
    try {
      for (const name of added) await addDepartment(page, name)
    } finally {
      await browser.context.setOffline(false)
    }
    await expect.poll(() => writes, { timeout: 10_000 }).toBeGreaterThanOrEqual(2)
    expect(await mirrorOutboxSize(page)).toBeGreaterThan(0)
    await page.close()
    const fired = faults.storm()
    page = await browser.context.newPage()
    await page.goto(faults.url('/department'))
    await expectShell(page, 'Отделения')
    await settled(faults, page)
    expect(fired()).toBeGreaterThan(0)
    expect(await names('department')).toEqual([...before, ...added].sort())
  })

  it('two tabs making edits at once: every change reaches the server once', async () => {
    const fired = faults.storm()
    const before = await names('location')
    const second = await browser.context.newPage()
    const tabs = [page, second]
    for (const tab of tabs) {
      await tab.goto(faults.url('/locations'))
      await tab.getByRole('link', { name: 'Добавить локацию' }).first().waitFor()
    }
    const addLocation = async (on: Page, name: string) => {
      await on.getByRole('link', { name: 'Добавить локацию' }).first().click()
      await formField(on, 'name').fill(name)
      await formField(on, 'address').fill(`ул. ${name}`)
      await on.locator('form').getByRole('button', { name: 'Добавить', exact: true }).click()
      await on.waitForURL((url) => url.pathname === '/locations')
      await listRow(on, 'Локации', name).first().waitFor()
    }
    const made = [
      ['Первая вкладка А', 'Первая вкладка Б', 'Первая вкладка В'],
      ['Вторая вкладка А', 'Вторая вкладка Б', 'Вторая вкладка В'],
    ]
    await Promise.all(
      tabs.map(async (tab, i) => {
        for (const name of made[i]!) await addLocation(tab, name)
      }),
    )
    // The first tab renames one the second made.
    await rename(page, 'Локации', 'Вторая вкладка Б', 'Вторая вкладка Б (переименована)')
    await settled(faults, ...tabs)
    expect(fired()).toBeGreaterThan(0)
    const meant = [
      ...before,
      ...made.flat().map((n) => (n === 'Вторая вкладка Б' ? `${n} (переименована)` : n)),
    ].sort()
    expect(await names('location')).toEqual(meant)
    await second.close()
  })
})
