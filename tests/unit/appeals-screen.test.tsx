import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useRouterState } from '@tanstack/react-router'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import type { AppealRow } from '../../src/data/types.ts'
import AppealsPage from '../../src/features/appeals/appeals-page.tsx'
import { createWorkspace, setCurrentWorkspace } from '../../src/sync/mutators/workspaces.ts'
import { renderInApp } from './helpers/render-app.tsx'

// «Обращения» on the mirror (docs/requests.md, "The app"): newest first, searched by phone,
// filtered, a request opened by `?id=`, its status changed through the outbox.

let db: MirrorDb
let n = 0
beforeEach(() => {
  n += 1
  db = new MirrorDb(`appeals-screen-${n}`)
  setDb(db)
  act(() => i18n.activate('ru'))
})
afterEach(() => {
  document.body.innerHTML = ''
})

const appeal = (workspaceId: number, extra: Partial<AppealRow>): AppealRow => ({
  id: 1,
  ck: String(extra.id ?? 1),
  workspace_id: workspaceId,
  project_id: 4,
  block_id: 17,
  kind: 'subscribe',
  name: 'Мария Петрова',
  phone: '+79123456789',
  email: '',
  comment: 'Лучше после обеда',
  specialist_id: null,
  date: '2030-05-01',
  price: null,
  utm: { utm_source: 'vk' },
  referrer: 'https://vk.com/',
  page_url: 'https://promo.example.ru/p/akciya',
  status: 'new',
  created_at: '2030-04-20T09:15:02.113Z',
  version: 1,
  deliveries: [
    {
      integration_kind: 'amo',
      integration_id: 3,
      state: 'failed',
      crm_id: null,
      attempts: 5,
      last_error: 'amoCRM отклонила заявку: нет воронки',
      next_attempt_at: null,
    },
  ],
  ...extra,
})

function Screen() {
  const id = useRouterState({ select: (s) => (s.location.search as { id?: number }).id })
  return <AppealsPage openId={id ?? null} />
}

const rowNames = () =>
  within(screen.getByRole('list', { name: 'Обращения' }))
    .getAllByRole('listitem')
    .map((item) => within(item).getByTestId('row-name').textContent)

describe('«Обращения»', () => {
  it('says what to do when there are none', async () => {
    await setCurrentWorkspace(await createWorkspace('Клиника'))
    await renderInApp(() => <Screen />, '/appeal')
    expect(
      await screen.findByText('Обращений пока нет', {}, { timeout: 10_000 }),
    ).toBeInTheDocument()
  }, 30_000)

  it('lists newest first, finds a phone, filters by status, opens one and changes its status', async () => {
    const ws = await createWorkspace('Клиника')
    await setCurrentWorkspace(ws)
    await db.appeal.bulkPut([
      appeal(ws, { id: 1 }),
      appeal(ws, { id: 2, name: 'Иван Соколов', phone: '+79030000000', status: 'spam' }),
      appeal(ws, { id: 3, name: 'Ольга Белова', phone: '+79261112233', kind: 'gift' }),
    ])
    const { router } = await renderInApp(() => <Screen />, '/appeal')
    const user = userEvent.setup()
    await waitFor(
      () => expect(rowNames()).toEqual(['Ольга Белова', 'Иван Соколов', 'Мария Петрова']),
      { timeout: 10_000 },
    )

    await user.type(screen.getByRole('searchbox', { name: 'Поиск' }), '8 (912) 345')
    await waitFor(() => expect(rowNames()).toEqual(['Мария Петрова']))
    await user.clear(screen.getByRole('searchbox', { name: 'Поиск' }))
    await user.selectOptions(screen.getByLabelText('Статус'), 'spam')
    await waitFor(() => expect(rowNames()).toEqual(['Иван Соколов']))
    await user.click(screen.getByRole('button', { name: 'Сбросить фильтры' }))
    await waitFor(() => expect(rowNames()).toHaveLength(3))

    await user.click(screen.getByText('Мария Петрова'))
    await waitFor(() => expect(router.state.location.search).toEqual({ id: 1 }))
    const detail = await screen.findByTestId('appeal-detail')
    expect(within(detail).getByText('Лучше после обеда')).toBeInTheDocument()
    expect(
      within(detail).getByText('Последняя ошибка: amoCRM отклонила заявку: нет воронки'),
    ).toBeInTheDocument()
    expect(within(detail).getByRole('button', { name: 'Повторить отправку' })).toBeInTheDocument()

    await user.click(within(detail).getByRole('button', { name: 'В работе' }))
    await waitFor(async () =>
      expect(await db.outbox.where('table').equals('appeal').toArray()).toMatchObject([
        { table: 'appeal', op: 'update', payload: { status: 'in_work' }, baseVersion: 1 },
      ]),
    )
    await waitFor(() =>
      expect(within(detail).getByRole('button', { name: 'В работе' })).toHaveAttribute(
        'aria-pressed',
        'true',
      ),
    )
  }, 30_000)
})
