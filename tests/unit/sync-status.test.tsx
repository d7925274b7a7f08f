import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import { writeSyncMeta } from '../../src/data/sync-state.ts'
import type { EntryState, OutboxEntry } from '../../src/data/entries.ts'
import { SaveStatusText } from '../../src/features/editor/editor-page.tsx'
import { SyncStatus } from '../../src/features/sync-status/sync-status.tsx'
import { discardEntry, retryEntry } from '../../src/sync/client.ts'
import { configureApi, NetworkError, request } from '../../src/api/client.ts'
import { isAnswering, noteAnswer } from '../../src/sync/reachability.ts'
import { renderInApp } from './helpers/render-app.tsx'
import { dismissNotice, listNotices } from '../../src/api/members.ts'
import type { ChangeNotice } from '../../src/domain/workspace.ts'
import { centrePercent } from '../../src/domain/geometry.ts'
import * as v from 'valibot'

vi.mock('../../src/sync/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/sync/client.ts')>()),
  retryEntry: vi.fn(async () => undefined),
  discardEntry: vi.fn(async () => undefined),
}))

// What colleagues kept over the person's values: none unless a test says otherwise.
vi.mock('../../src/api/members.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/api/members.ts')>()),
  listNotices: vi.fn(async () => []),
  dismissNotice: vi.fn(async () => undefined),
}))

let db: MirrorDb
let n = 0
beforeEach(() => {
  vi.mocked(listNotices).mockResolvedValue([])
  vi.mocked(dismissNotice).mockClear()
  n += 1
  db = new MirrorDb(`sync-status-${n}`)
  setDb(db)
  vi.mocked(retryEntry).mockClear()
  vi.mocked(discardEntry).mockClear()
})

/** A department's update (or another table's, for the panel's labels). */
const entry = (
  partial: Partial<EntryState> & { table?: 'department' | 'location' },
): OutboxEntry => ({
  key: crypto.randomUUID(),
  table: 'department',
  ck: '5',
  op: 'update',
  payload: {},
  state: 'pending',
  attempts: 0,
  nextAttemptAt: 0,
  sent: false,
  label: 'Кардиология',
  createdAt: 0,
  ...partial,
})

/** A department renamed here while a colleague renamed it on the server: a conflict to decide. */
const conflictEntry = () =>
  entry({
    state: 'parked',
    code: 'conflict',
    message: 'Запись изменена',
    baseVersion: 4,
    conflict: {
      version: 4,
      fields: [{ field: 'name', mine: 'Кардиология (новая)', theirs: 'Кардиоцентр' }],
      current: { id: 5, version: 4, name: 'Кардиоцентр' },
    },
  })

describe('sync status in the top bar', () => {
  it('says everything is saved when the outbox is empty', async () => {
    await renderInApp(() => <SyncStatus />)
    expect(await screen.findByRole('button', { name: /Всё сохранено/ })).toBeInTheDocument()
  })

  it('is a light button until first opened; opened from the keyboard, its panel loads and the focus stays on it', async () => {
    // No Mantine around it (docs/performance.md): the panel brings its own when it loads.
    await renderInApp(() => <SyncStatus />, '/', { mantine: false })
    const button = await screen.findByRole('button', { name: /Всё сохранено/ })
    expect(button).toHaveAttribute('aria-expanded', 'false')
    expect(document.querySelector('.mantine-Popover-dropdown')).toBeNull()
    button.focus()
    await userEvent.keyboard('{Enter}')
    // Loading the panel loads Mantine, which the test runner compiles on first import.
    expect(await screen.findByTestId('sync-summary', {}, { timeout: 15_000 })).toHaveTextContent(
      'Все изменения отправлены.',
    )
    const loaded = screen.getByRole('button', { name: /Всё сохранено/ })
    await waitFor(() => expect(loaded).toHaveFocus())
    expect(loaded).toHaveAttribute('aria-expanded', 'true')
  }, 20_000)

  it('counts waiting changes and lists rejected ones with retry and discard', async () => {
    await db.outbox.add(entry({ ck: '6' }))
    await db.outbox.add(entry({ ck: '6', table: 'location', label: 'Центр' }))
    const seq = await db.outbox.add(
      entry({
        state: 'parked',
        sent: true,
        message: 'Проверьте введённые данные: Обязательное поле',
      }),
    )
    await renderInApp(() => <SyncStatus />)
    const trigger = await screen.findByRole('button', { name: /Ждут отправки: 2/ })
    await userEvent.click(trigger)
    // The panel is a popover still in its opening transition in jsdom: query hidden nodes too.
    expect(await screen.findByText('Отделение «Кардиология»')).toBeInTheDocument()
    expect(screen.getByText('Проверьте введённые данные: Обязательное поле')).toBeInTheDocument()
    await userEvent.click(await screen.findByRole('button', { name: 'Повторить', hidden: true }))
    expect(retryEntry).toHaveBeenCalledWith(seq)
    await userEvent.click(screen.getByRole('button', { name: 'Отменить изменение', hidden: true }))
    expect(discardEntry).toHaveBeenCalledWith(seq)
  })

  it('names a refused publish of a project like any other refusal (docs/SYNC.md "Publishing")', async () => {
    await db.mirror('projects').put({
      id: 9,
      ck: '9',
      workspace_id: 1,
      name: 'Акция',
      type: 1,
      updated_at: '2026-05-01T10:00:00.000Z',
    })
    await db.outbox.add({
      ...entry({ state: 'parked', sent: true, message: 'Проект не найден', label: 'Акция' }),
      table: 'projects',
      ck: '9',
      op: 'publish',
      payload: {},
    } as OutboxEntry)
    await renderInApp(() => <SyncStatus />)
    await userEvent.click(await screen.findByRole('button', { name: /Отклонено: 1/ }))
    expect(await screen.findByText('Публикация проекта «Акция»')).toBeInTheDocument()
    expect(screen.getByText('Проект не найден')).toBeInTheDocument()
  })

  it('shows a conflict with both values and lets the person keep theirs or take the server’s', async () => {
    const seq = await db.outbox.add(conflictEntry())
    await renderInApp(() => <SyncStatus />)
    // The header says what waits: a conflict to decide, not a refusal.
    await userEvent.click(await screen.findByRole('button', { name: /Конфликты: 1/ }))
    const row = await screen.findByTestId('conflict-entry')
    expect(
      screen.getByText('Изменено и здесь, и на сервере: 1. Выберите, что оставить.'),
    ).toBeInTheDocument()
    expect(row).toHaveTextContent('Ваше: «Кардиология (новая)»')
    expect(row).toHaveTextContent('На сервере: «Кардиоцентр»')
    await userEvent.click(screen.getByRole('button', { name: 'Оставить моё', hidden: true }))
    expect(retryEntry).toHaveBeenCalledWith(seq)
    await userEvent.click(screen.getByRole('button', { name: 'Взять с сервера', hidden: true }))
    expect(discardEntry).toHaveBeenCalledWith(seq)
  })

  it('shows a block’s conflict as its inspector does: the place in %, the size, degrees, colours', async () => {
    // A 1600 × 900 section: y runs ±56.25 units, so y 0 is 50 % down and y 28.125 is 75 %.
    await db.backgrounds.put({
      id: 3,
      ck: '3',
      project_id: 1,
      version: 1,
      image_url: '/uploads/bg.png',
      width: 1600,
      height: 900,
      position: 0,
    })
    await db.outbox.add({
      ...entry({
        state: 'parked',
        code: 'conflict',
        message: 'Блок изменён',
        label: 'Кнопка',
        baseVersion: 2,
        conflict: {
          version: 3,
          fields: [
            { field: 'x', mine: -50, theirs: 0 },
            { field: 'y', mine: 0, theirs: 28.125 },
            { field: 'rotation', mine: 14.6, theirs: 0 },
            { field: 'background', mine: '#e64980', theirs: 'transparent' },
            { field: 'text', mine: 'Записаться', theirs: 'Узнать больше' },
          ],
          current: { id: 8, version: 3, type: 'button', bg_id: 3 },
        },
      }),
      table: 'blocks',
      ck: '8',
      op: 'save',
    } as OutboxEntry)
    await renderInApp(() => <SyncStatus />)
    await userEvent.click(await screen.findByRole('button', { name: /Конфликты: 1/ }))
    const row = await screen.findByTestId('conflict-entry')
    const line = (name: string) => row.querySelector(`[data-field="${name}"]`)!
    // One line for the place, in per cent of the background, never two raw coordinates.
    expect(line('place')).toHaveTextContent(
      'ПоложениеВаше: X 25 %, Y 50 %На сервере: X 50 %, Y 75 %',
    )
    expect(row.querySelector('[data-field="x"]')).toBeNull()
    expect(line('rotation')).toHaveTextContent('Ваше: 15°')
    // Named as the button's inspector names them.
    expect(line('background')).toHaveTextContent('Цвет кнопки')
    expect(line('background')).toHaveTextContent('Ваше: #E64980')
    expect(line('background')).toHaveTextContent('На сервере: без заливки')
    expect(line('text')).toHaveTextContent('Текст кнопки')
  })

  it('counts a conflict once in the header, and never says everything was sent above it', async () => {
    await db.outbox.add(conflictEntry())
    await renderInApp(() => <SyncStatus />)
    const button = await screen.findByRole('button', { name: /Конфликты: 1/ })
    // The words give the count; no badge repeats it.
    expect(button.textContent).toBe('Конфликты: 1')
    await userEvent.click(button)
    const summary = await screen.findByTestId('sync-summary')
    expect(summary.textContent).not.toMatch(/Все изменения отправлены/)
    expect(summary.textContent).toBe(
      'Остальные изменения отправлены. Ниже — те, что ждут вашего решения.',
    )
  })

  it('keeps the count of refused changes beside another state', async () => {
    await db.outbox.add(entry({ state: 'parked', sent: true, message: 'Не найдено' }))
    await db.outbox.add(entry({ ck: '6' }))
    await renderInApp(() => <SyncStatus />)
    const button = await screen.findByRole('button', { name: /Ждут отправки: 1/ })
    // «Ждут отправки: 1», then the badge's «1» for the refused one.
    expect(button.textContent).toBe('Ждут отправки: 11')
  })

  it('shows the rejected count when nothing else waits', async () => {
    await db.outbox.add(entry({ state: 'parked', sent: true, message: 'Не найдено' }))
    await renderInApp(() => <SyncStatus />)
    expect(await screen.findByRole('button', { name: /Отклонено: 1/ })).toBeInTheDocument()
  })

  it('asks to sign in again after a 401 and leads to the lock screen', async () => {
    await writeSyncMeta({ needsSignIn: true }, db)
    const { router } = await renderInApp(() => <SyncStatus />, '/department')
    await userEvent.click(await screen.findByRole('button', { name: 'Войти снова' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/lock-screen'))
    expect(router.state.location.search).toMatchObject({ to: '/department' })
  })
})

describe('what colleagues kept over the person’s values', () => {
  const notice = (partial: Partial<ChangeNotice> = {}): ChangeNotice => ({
    id: 7,
    workspace_id: 1,
    workspace_name: 'Клиника',
    by: 'Анна Петрова',
    kind: 'department',
    record_id: 5,
    label: 'Кардиоцентр',
    changes: [{ field: 'name', was: 'Кардиология', now: 'Кардиоцентр' }],
    block: null,
    created_at: '2026-11-29T11:05:00.000Z',
    ...partial,
  })

  it('counts them beside «Всё сохранено» and tells who, what, both values and when', async () => {
    vi.mocked(listNotices).mockResolvedValue([notice()])
    await renderInApp(() => <SyncStatus />)
    const button = await screen.findByRole('button', {
      name: 'Синхронизация: Всё сохранено. Коллеги заменили ваши значения: 1',
    })
    expect(screen.getByTestId('notices-count')).toHaveTextContent('1')
    await userEvent.click(button)
    const row = await screen.findByTestId('notice', {}, { timeout: 15_000 })
    expect(screen.getByTestId('notices')).toHaveTextContent('Коллеги заменили ваши значения: 1')
    expect(row).toHaveTextContent('Отделение «Кардиоцентр»')
    // When, in the device's own time zone.
    expect(row).toHaveTextContent(
      /Анна Петрова оставил\(а\) своё значение вместо вашего · 29 нояб\., \d\d:05 · пространство «Клиника»/,
    )
    expect(row).toHaveTextContent('НазваниеБыло ваше: «Кардиология»Стало: «Кардиоцентр»')
    // «Понятно»: gone from the panel and the count, and the server is told.
    await userEvent.click(within(row).getByRole('button', { name: 'Понятно', hidden: true }))
    await waitFor(() => expect(screen.queryByTestId('notice')).toBeNull())
    expect(dismissNotice).toHaveBeenCalledWith(7)
    expect(screen.queryByTestId('notices-count')).toBeNull()
  })

  it('shows a block’s values as its inspector does', async () => {
    vi.mocked(listNotices).mockResolvedValue([
      notice({
        kind: 'block',
        label: 'Весна',
        changes: [
          { field: 'x', was: 0, now: 10 },
          { field: 'y', was: 0, now: -20 },
        ],
        block: { type: 'text', project_id: 3, bg_id: 4, bg_width: 1200, bg_height: 675 },
      }),
    ])
    await renderInApp(() => <SyncStatus />)
    await userEvent.click(await screen.findByRole('button', { name: /Коллеги заменили/ }))
    const row = await screen.findByTestId('notice', {}, { timeout: 15_000 })
    expect(row).toHaveTextContent('Блок в проекте «Весна»')
    const { x, y } = centrePercent({ x: 10, y: -20 }, { width: 1200, height: 675 })
    const now = `X ${String(x).replace('.', ',')} %, Y ${y.toFixed(1).replace('.', ',')} %`
    expect(row).toHaveTextContent(`ПоложениеБыло ваше: X 50 %, Y 50 %Стало: ${now}`)
  })
})

describe('offline is told by answers', () => {
  const Any = v.looseObject({})
  const answerWith = (answer: () => Promise<Response>) => {
    vi.stubGlobal('fetch', vi.fn(answer))
    configureApi({ baseUrl: 'http://app.test', getToken: () => 'tok', onAnswer: noteAnswer })
  }
  afterEach(() => {
    vi.unstubAllGlobals()
    noteAnswer(true)
  })

  it('says «Сервер не отвечает» while requests get no answer though the browser reports a network, and goes back at the first answer', async () => {
    expect(navigator.onLine).toBe(true)
    await db.outbox.add(entry({ ck: '6' }))
    await renderInApp(() => <SyncStatus />)
    await screen.findByRole('button', { name: /Ждут отправки: 1/ })

    answerWith(async () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(request('/api/check_auth', { schema: Any })).rejects.toBeInstanceOf(NetworkError)
    expect(
      await screen.findByRole('button', { name: /Сервер не отвечает · ждут: 1/ }),
    ).toBeInTheDocument()

    // A captive portal's page is no answer either; the API's own error is one.
    answerWith(async () => new Response('<html>Wi-Fi</html>', { status: 200 }))
    await expect(request('/api/check_auth', { schema: Any })).rejects.toBeInstanceOf(NetworkError)
    expect(isAnswering()).toBe(false)
    answerWith(
      async () =>
        new Response('{"error":{"code":"x","message":"Нет"}}', {
          status: 503,
          headers: { 'Content-Type': 'application/json' },
        }),
    )
    await expect(request('/api/check_auth', { schema: Any })).rejects.toThrow()
    expect(await screen.findByRole('button', { name: /Ждут отправки: 1/ })).toBeInTheDocument()
  })

  it('follows the sync worker’s word on its own requests', async () => {
    await renderInApp(() => <SyncStatus />)
    await screen.findByRole('button', { name: /Всё сохранено/ })
    noteAnswer(false)
    expect(
      await screen.findByRole('button', { name: 'Синхронизация: Сервер не отвечает' }),
    ).toBeInTheDocument()
    noteAnswer(true)
    expect(await screen.findByRole('button', { name: /Всё сохранено/ })).toBeInTheDocument()
  })

  it('never says «Всё сохранено» while the outbox is still being read, with changes in it', async () => {
    await db.outbox.add(entry({ ck: '6' }))
    await db.outbox.add(entry({ ck: '7' }))
    const states: (string | null)[] = []
    const observer = new MutationObserver(() => {
      const state = document
        .querySelector('[data-testid="sync-status"]')
        ?.getAttribute('data-state')
      if (state && states.at(-1) !== state) states.push(state)
    })
    observer.observe(document.body, { subtree: true, childList: true, attributes: true })
    try {
      await renderInApp(() => <SyncStatus />)
      await screen.findByRole('button', { name: /Ждут отправки: 2/ })
    } finally {
      observer.disconnect()
    }
    expect(states).not.toContain('saved')
    expect(states.at(-1)).toBe('pending')
  })
})

describe('storage warnings in the sync panel', () => {
  it('says when persistent storage was refused and space is short', async () => {
    const original = navigator.storage
    Object.defineProperty(navigator, 'storage', {
      configurable: true,
      value: {
        persisted: async () => false,
        persist: async () => false,
        estimate: async () => ({ usage: 95, quota: 100 }),
      },
    })
    try {
      const { checkStorage } = await import('../../src/sync/storage-status.ts')
      expect(await checkStorage()).toMatchObject({ persisted: false, short: true })
      await renderInApp(() => <SyncStatus />)
      await userEvent.click(await screen.findByRole('button', { name: /Всё сохранено/ }))
      expect(await screen.findByTestId('storage-short')).toHaveTextContent(/мало места/)
      expect(screen.getByTestId('storage-not-persisted')).toHaveTextContent(/постоянное хранилище/)
    } finally {
      Object.defineProperty(navigator, 'storage', { configurable: true, value: original })
    }
  })
})

describe('the editor toolbar’s save state', () => {
  it('says what the header says once the changes are on the device', async () => {
    await db.outbox.add(entry({ ck: '7' }))
    await db.outbox.add(entry({ ck: '8' }))
    await renderInApp(() => (
      <>
        <SaveStatusText status="saved" />
        <SyncStatus />
      </>
    ))
    // Never «Сохранено» while two changes wait for the network.
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Ждут отправки: 2'))
    expect(await screen.findByRole('button', { name: /Ждут отправки: 2/ })).toBeInTheDocument()
  })

  it('«Конфликты: N» in the editor opens the header’s panel with the choices', async () => {
    await db.outbox.add(conflictEntry())
    await renderInApp(() => (
      <>
        <SaveStatusText status="saved" />
        <SyncStatus />
      </>
    ))
    const editorButton = await screen.findByTestId('editor-parked')
    await waitFor(() => expect(editorButton).toHaveTextContent('Конфликты: 1'))
    await userEvent.click(editorButton)
    const row = await screen.findByTestId('conflict-entry', {}, { timeout: 15_000 })
    expect(row).toHaveTextContent('На сервере: «Кардиоцентр»')
    const header = screen.getByRole('button', { name: /Синхронизация: Конфликты: 1/ })
    expect(header).toHaveAttribute('aria-expanded', 'true')
    // The focus is on the header's button: Escape closes the panel from there too.
    await waitFor(() => expect(header).toHaveFocus())
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(header).toHaveAttribute('aria-expanded', 'false'))
  }, 20_000)

  it('keeps its own words while the changes are still in the editor', async () => {
    await renderInApp(() => <SaveStatusText status="pending" />)
    expect(await screen.findByRole('status')).toHaveTextContent('Есть несохранённые изменения')
  })
})
