import { describe, expect, it } from 'vitest'
import { creationRank } from '../../src/features/records/sorts.ts'
import {
  deleteWorkspaceMessage,
  describeContents,
} from '../../src/features/workspaces/workspace-contents.ts'
import { parseRecordId } from '../../src/features/records/record-id.ts'
import {
  compareText,
  filterList,
  normalizeSearch,
  queryList,
  sortList,
} from '../../src/ui/list-query.ts'
import { i18n } from '../../src/app/i18n.ts'

interface Row {
  id: number
  name: string
  city: string
}
const rows: Row[] = [
  { id: 3, name: 'Ёлкина Анна', city: 'Пермь' },
  { id: 1, name: 'борисов Иван', city: 'Казань' },
  { id: 2, name: 'Алексеев Пётр', city: 'Пермь' },
  { id: 4, name: 'Алексеев Пётр', city: 'Омск' },
]
const byName = (a: Row, b: Row) => compareText(a.name, b.name)

describe('list search and sort', () => {
  it('normalises case, «ё» and spaces', () => {
    expect(normalizeSearch('  Ёлкина   АННА ')).toBe('елкина анна')
  })

  it('finds every word anywhere in the searched text', () => {
    const found = queryList(rows, {
      search: 'елкина пермь',
      searchText: (row) => `${row.name} ${row.city}`,
    })
    expect(found.map((row) => row.id)).toEqual([3])
    expect(queryList(rows, { search: 'пермь', searchText: (r) => r.city })).toHaveLength(2)
    expect(queryList(rows, { search: 'москва', searchText: (r) => r.city })).toHaveLength(0)
  })

  it('sorts by Russian collation ignoring case, both directions, ties by id', () => {
    const asc = queryList(rows, {
      search: '',
      searchText: (r) => r.name,
      compare: byName,
      tieBreak: (a, b) => a.id - b.id,
    })
    expect(asc.map((row) => row.id)).toEqual([2, 4, 1, 3])
    const desc = queryList(rows, {
      search: '',
      searchText: (r) => r.name,
      compare: byName,
      direction: 'desc',
      tieBreak: (a, b) => a.id - b.id,
    })
    expect(desc.map((row) => row.id)).toEqual([3, 1, 2, 4])
  })

  it('applies the filter before searching and never mutates the input', () => {
    const copy = [...rows]
    const found = queryList(rows, {
      search: '',
      searchText: (r) => r.name,
      filter: (r) => r.city === 'Пермь',
      compare: byName,
    })
    expect(found.map((r) => r.id)).toEqual([2, 3])
    expect(rows).toEqual(copy)
  })

  it('filtering the sorted rows gives what filtering then sorting gives, and leaves the input', () => {
    const copy = [...rows]
    const options = {
      search: 'пермь',
      searchText: (r: (typeof rows)[number]) => `${r.name} ${r.city}`,
      compare: byName,
      direction: 'desc' as const,
      tieBreak: (a: { id: number }, b: { id: number }) => a.id - b.id,
    }
    const sortedThenFiltered = filterList(sortList(rows, options), options)
    expect(sortedThenFiltered.map((r) => r.id)).toEqual(queryList(rows, options).map((r) => r.id))
    expect(sortedThenFiltered.length).toBeGreaterThan(0)
    expect(rows).toEqual(copy)
  })

  it('ranks records made offline (negative ids) as the newest, in creation order', () => {
    const ids = [5, -2, 1, -1, 40]
    expect([...ids].sort((a, b) => creationRank(a) - creationRank(b))).toEqual([1, 5, 40, -1, -2])
  })
})

describe('route ids', () => {
  it('accepts server and local ids and refuses anything else', () => {
    expect(parseRecordId('42')).toBe(42)
    expect(parseRecordId('-3')).toBe(-3)
    for (const bad of ['0', 'abc', '1.5', '', '-', '1e3', '9999999999999999'])
      expect(parseRecordId(bad)).toBeNull()
  })
})

describe('workspace contents', () => {
  it('counts with Russian plural forms', () => {
    i18n.activate('ru')
    expect(
      describeContents({
        projects: 1,
        integrations: 3,
        departments: 5,
        locations: 21,
        specialists: 0,
      }),
    ).toBe('1 проект, 3 интеграции, 5 отделений, 21 локация')
  })
  it('the delete confirmation leaves out kinds with no items and nests the name’s quotes', () => {
    i18n.activate('ru')
    const none = { projects: 0, integrations: 0, departments: 0, locations: 0, specialists: 0 }
    expect(deleteWorkspaceMessage('Клиника «Здоровье»', { ...none, specialists: 2 })).toBe(
      'В пространстве «Клиника „Здоровье“»: 2 специалиста. Пространство и всё это будет удалено без возможности восстановления.',
    )
    expect(deleteWorkspaceMessage('Пустое', none)).toBe(
      'Пространство «Пустое» пусто. Оно будет удалено без возможности восстановления.',
    )
  })
})
