import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import { compareText } from '../../src/ui/list-query.ts'
import { RecordList, recordId, type SortOption } from '../../src/ui/record-list.tsx'
import type { SyncMarkState } from '../../src/ui/sync-mark.tsx'
import { renderInApp } from './helpers/render-app.tsx'

interface Row {
  id: number
  name: string
  city: string
}

const sorts: SortOption<Row>[] = [
  { value: 'name', label: 'По имени', compare: (a, b) => compareText(a.name, b.name) },
  { value: 'city', label: 'По городу', compare: (a, b) => compareText(a.city, b.city) },
]

function List(props: {
  items: Row[] | undefined
  partial?: boolean
  onOpen?: (row: Row) => void
  marks?: Map<number, SyncMarkState>
  editingId?: number | null
}) {
  return (
    <RecordList
      label="Люди"
      items={props.items}
      partial={props.partial}
      getId={recordId}
      searchText={(row) => `${row.name} ${row.city}`}
      sorts={sorts}
      marks={props.marks}
      onOpen={props.onOpen}
      editingId={props.editingId}
      renderRow={(row) => (
        <span>
          {row.name} — {row.city}
        </span>
      )}
      empty={<div>Пусто: добавьте первого</div>}
    />
  )
}

const names = () =>
  within(screen.getByRole('list', { name: 'Люди' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent?.split(' — ')[0])

beforeEach(() => act(() => i18n.activate('ru')))
afterEach(() => {
  document.body.innerHTML = ''
})

describe('RecordList', () => {
  it('with only the first screen of a long list, says the rest is loading instead of a total', async () => {
    const rows = [
      { id: 1, name: 'Анна', city: 'Омск' },
      { id: 2, name: 'Борис', city: 'Пермь' },
    ]
    await renderInApp(() => <List items={rows} partial />)
    expect(await screen.findByText('Загружается весь список…')).toBeInTheDocument()
    expect(screen.queryByText(/^Всего/)).toBeNull()
    expect(names()).toEqual(['Анна', 'Борис'])
  })

  it('sorts a list once: a search, or sort options rebuilt with the same comparison, only filter', async () => {
    const compare = vi.fn((a: Row, b: Row) => compareText(a.name, b.name))
    const rows = Array.from({ length: 50 }, (_, i) => ({
      id: i + 1,
      name: `Имя ${(i * 7) % 50}`,
      city: i % 2 ? 'Пермь' : 'Казань',
    }))
    function Sorted() {
      // A screen that rebuilds its options when related records arrive (new objects, same compare).
      const [version, setVersion] = useState(1)
      const options: SortOption<Row>[] = [{ value: `name-${version}`, label: 'По имени', compare }]
      return (
        <>
          <button type="button" onClick={() => setVersion((v) => v + 1)}>
            Связанные записи пришли
          </button>
          <RecordList
            label="Люди"
            items={rows}
            getId={recordId}
            searchText={(row) => `${row.name} ${row.city}`}
            sorts={options}
            renderRow={(row) => <span>{row.name}</span>}
            empty={<div>Пусто</div>}
          />
        </>
      )
    }
    await renderInApp(() => <Sorted />)
    await screen.findAllByRole('listitem')
    const sortedOnce = compare.mock.calls.length
    expect(sortedOnce).toBeGreaterThan(0)
    await userEvent.type(screen.getByRole('searchbox'), 'Пермь')
    expect(await screen.findByText(/Найдено: 25 из 50/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Связанные записи пришли' }))
    expect(await screen.findByText(/Найдено: 25 из 50/)).toBeInTheDocument()
    expect(compare.mock.calls.length).toBe(sortedOnce)
  })

  it('shows a loading state, then an empty state that says what to do', async () => {
    const view = await renderInApp(() => <List items={undefined} />)
    expect(screen.getByTestId('list-loading')).toHaveAttribute('aria-busy', 'true')
    view.unmount()
    await renderInApp(() => <List items={[]} />)
    expect(await screen.findByText('Пусто: добавьте первого')).toBeInTheDocument()
    expect(screen.queryByRole('list')).toBeNull()
  })

  it('sorts by name by default, by the second key on choice, and flips direction', async () => {
    const rows = [
      { id: 1, name: 'Вера', city: 'Омск' },
      { id: 2, name: 'Анна', city: 'Пермь' },
      { id: 3, name: 'Борис', city: 'Казань' },
    ]
    await renderInApp(() => <List items={rows} />)
    const user = userEvent.setup()
    await screen.findByRole('list', { name: 'Люди' })
    expect(names()).toEqual(['Анна', 'Борис', 'Вера'])
    await user.selectOptions(screen.getByLabelText('Сортировка'), 'city')
    expect(names()).toEqual(['Борис', 'Вера', 'Анна'])
    const reverse = screen.getByRole('button', { name: 'Обратный порядок' })
    expect(reverse).toHaveAttribute('aria-pressed', 'false')
    await user.click(reverse)
    expect(names()).toEqual(['Анна', 'Вера', 'Борис'])
    // The same control, under the same name, now pressed.
    expect(screen.getByRole('button', { name: 'Обратный порядок' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
  })

  it('searches as you type, counts matches and offers a reset when nothing matches', async () => {
    const rows = [
      { id: 1, name: 'Вера', city: 'Омск' },
      { id: 2, name: 'Анна', city: 'Пермь' },
      { id: 3, name: 'Артём', city: 'Пермь' },
    ]
    await renderInApp(() => <List items={rows} />)
    const user = userEvent.setup()
    const search = await screen.findByRole('searchbox', { name: 'Поиск' })
    await user.type(search, 'пермь')
    await waitFor(() => expect(names()).toEqual(['Анна', 'Артём']))
    expect(screen.getByText('Найдено: 2 из 3')).toBeInTheDocument()
    await user.type(search, ' москва')
    expect(await screen.findByText('Ничего не найдено')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Сбросить поиск' }))
    await waitFor(() => expect(names()).toHaveLength(3))
    expect(screen.getByText('Всего: 3')).toBeInTheDocument()
  })

  it('marks rows with unsynced or rejected changes and opens a row on tap', async () => {
    const onOpen = vi.fn()
    const rows = [
      { id: -1, name: 'Новая', city: 'Омск' },
      { id: 2, name: 'Старая', city: 'Пермь' },
      { id: 3, name: 'Чистая', city: 'Казань' },
      { id: 4, name: 'Спорная', city: 'Тула' },
    ]
    const marks = new Map<number, SyncMarkState>([
      [-1, 'pending'],
      [2, 'parked'],
      [4, 'conflict'],
    ])
    await renderInApp(() => <List items={rows} marks={marks} onOpen={onOpen} />)
    const user = userEvent.setup()
    const pending = (await screen.findByText('Ждёт отправки')).closest('[role="listitem"]')
    expect(pending).toHaveAttribute('data-record-id', '-1')
    expect(screen.getByText('Не принято сервером').closest('[role="listitem"]')).toHaveAttribute(
      'data-record-id',
      '2',
    )
    // A change that meets a colleague's says so, not that the server refused it.
    expect(screen.getByText('Конфликт').closest('[role="listitem"]')).toHaveAttribute(
      'data-record-id',
      '4',
    )
    expect(document.querySelectorAll('[data-sync-mark]')).toHaveLength(3)
    await user.click(screen.getByRole('button', { name: /Чистая/ }))
    expect(onOpen).toHaveBeenCalledWith(rows[2])
  })

  it('renders only the rows in view out of 10,000', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      id: i + 1,
      name: `Специалист ${String(i).padStart(5, '0')}`,
      city: 'Пермь',
    }))
    await renderInApp(() => <List items={rows} />)
    const list = await screen.findByRole('list', { name: 'Люди' })
    const rendered = within(list).getAllByRole('listitem')
    expect(rendered.length).toBeGreaterThan(5)
    expect(rendered.length).toBeLessThan(60)
    expect(rendered[0]).toHaveAttribute('aria-setsize', '10000')
    expect(screen.getByText('Всего: 10000')).toBeInTheDocument()

    // Scrolled down the page, the rows there are drawn, each at its place, and the first are gone.
    const rowHeight = 72
    act(() => {
      window.scrollY = 5_000 * rowHeight
      window.dispatchEvent(new Event('scroll'))
    })
    const scrolled = within(list).getAllByRole('listitem')
    expect(scrolled.length).toBeLessThan(60)
    const positions = scrolled.map((row) => Number(row.getAttribute('aria-posinset')))
    expect(Math.min(...positions)).toBeLessThanOrEqual(5_000)
    expect(Math.max(...positions)).toBeGreaterThan(5_000)
    expect(positions).not.toContain(1)
    const row = scrolled.find((r) => r.getAttribute('aria-posinset') === '5001')!
    expect(row.style.transform).toBe(`translateY(${5_000 * rowHeight}px)`)
    act(() => {
      window.scrollY = 0
      window.dispatchEvent(new Event('scroll'))
    })
  })

  it('keeps the focused row and the row being edited in the page while it scrolls away', async () => {
    const rows = Array.from({ length: 1_000 }, (_, i) => ({
      id: i + 1,
      name: `Специалист ${String(i).padStart(4, '0')}`,
      city: 'Пермь',
    }))
    const scrollTo = (y: number) =>
      act(() => {
        window.scrollY = y
        window.dispatchEvent(new Event('scroll'))
      })
    function Editable() {
      const [editing, setEditing] = useState<number | null>(null)
      return (
        <>
          <button type="button" onClick={() => setEditing(3)}>
            Переименовать
          </button>
          <List items={rows} onOpen={() => undefined} editingId={editing} />
        </>
      )
    }
    await renderInApp(() => <Editable />)
    const list = await screen.findByRole('list', { name: 'Люди' })
    const open = within(list).getByRole('button', { name: /Специалист 0002/ })
    act(() => open.focus())
    scrollTo(500 * 72)
    // The focused row is still the same element, and still holds the focus.
    expect(open.isConnected).toBe(true)
    expect(document.activeElement).toBe(open)
    expect(names()).toContain('Специалист 0002')
    expect(names()).not.toContain('Специалист 0001')
    // Once the focus leaves, it goes with the other rows out of view.
    act(() => open.blur())
    scrollTo(500 * 72 + 72)
    expect(names()).not.toContain('Специалист 0002')

    // A row being edited (a rename in place) stays too.
    scrollTo(0)
    act(() => screen.getByRole('button', { name: 'Переименовать' }).click())
    scrollTo(500 * 72)
    expect(names()).toContain('Специалист 0002')
    scrollTo(0)
  })
})
