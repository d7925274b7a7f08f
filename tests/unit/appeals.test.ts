import { describe, expect, it } from 'vitest'
import type { Appeal } from '../../src/domain/appeal.ts'
import {
  appealsCsv,
  csvCell,
  csvMoment,
  type AppealCsvText,
} from '../../src/features/appeals/csv.ts'
import {
  appealFilter,
  appealSearchText,
  formatPhone,
  isFiltered,
  moscowDayOf,
  NO_FILTERS,
  periodBounds,
} from '../../src/features/appeals/filters.ts'
import { filterList } from '../../src/ui/list-query.ts'

/** The pure rules of «Обращения» (docs/requests.md, "The app"): filters, search, the CSV. */

const appeal = (extra: Partial<Appeal> = {}): Appeal => ({
  id: 31,
  workspace_id: 1,
  project_id: 4,
  block_id: 17,
  kind: 'subscribe',
  name: 'Мария Петрова',
  phone: '+79123456789',
  email: '',
  comment: 'Лучше после обеда',
  specialist_id: 2,
  date: '2030-05-01',
  price: null,
  utm: { utm_source: 'vk', utm_campaign: 'spring' },
  referrer: 'https://vk.com/',
  page_url: 'https://promo.example.ru/p/akciya',
  status: 'new',
  created_at: '2030-04-20T09:15:02.113Z',
  version: 1,
  deliveries: [
    {
      integration_kind: 'amo',
      integration_id: 3,
      state: 'delivered',
      crm_id: '21044',
      attempts: 1,
      last_error: '',
      next_attempt_at: null,
    },
  ],
  ...extra,
})

describe('filters', () => {
  const today = '2030-04-20'

  it('keeps every request without filters', () => {
    expect(isFiltered(NO_FILTERS)).toBe(false)
    expect(appealFilter(NO_FILTERS, today)(appeal())).toBe(true)
  })

  it('narrows by project, kind and status', () => {
    const keep = appealFilter(
      { ...NO_FILTERS, project: 4, kind: 'subscribe', status: 'new' },
      today,
    )
    expect(keep(appeal())).toBe(true)
    expect(keep(appeal({ project_id: 5 }))).toBe(false)
    expect(keep(appeal({ kind: 'gift' }))).toBe(false)
    expect(keep(appeal({ status: 'spam' }))).toBe(false)
    expect(isFiltered({ ...NO_FILTERS, status: 'spam' })).toBe(true)
  })

  it('counts periods in Moscow days, today included', () => {
    const todayOnly = appealFilter({ ...NO_FILTERS, period: 'today' }, today)
    // 23:30 on the 19th in Moscow is 20:30 UTC; 00:10 on the 20th in Moscow is 21:10 UTC the 19th.
    expect(todayOnly(appeal({ created_at: '2030-04-19T20:30:00Z' }))).toBe(false)
    expect(todayOnly(appeal({ created_at: '2030-04-19T21:10:00Z' }))).toBe(true)
    expect(todayOnly(appeal({ created_at: '2030-04-20T20:59:59Z' }))).toBe(true)
    expect(todayOnly(appeal({ created_at: '2030-04-20T21:00:00Z' }))).toBe(false)
    const week = appealFilter({ ...NO_FILTERS, period: '7' }, today)
    expect(week(appeal({ created_at: '2030-04-13T21:00:00Z' }))).toBe(true)
    expect(week(appeal({ created_at: '2030-04-13T20:59:00Z' }))).toBe(false)
    expect(moscowDayOf('2030-04-19T21:10:00Z')).toBe('2030-04-20')
  })

  it('takes chosen days, either end open, and ignores a malformed one', () => {
    const from = appealFilter(
      { ...NO_FILTERS, period: 'custom', from: '2030-04-01', to: '' },
      today,
    )
    expect(from(appeal({ created_at: '2030-03-31T20:00:00Z' }))).toBe(false)
    expect(from(appeal({ created_at: '2030-03-31T21:00:00Z' }))).toBe(true)
    const to = appealFilter({ ...NO_FILTERS, period: 'custom', from: '', to: '2030-04-01' }, today)
    expect(to(appeal({ created_at: '2030-04-01T20:59:00Z' }))).toBe(true)
    expect(to(appeal({ created_at: '2030-04-01T21:00:00Z' }))).toBe(false)
    expect(periodBounds({ period: 'custom', from: '1 апреля', to: '' }, today)).toEqual({
      from: null,
      to: null,
    })
    expect(isFiltered({ ...NO_FILTERS, period: 'custom' })).toBe(false)
  })

  it('finds a phone however it is typed, and the name', () => {
    const rows = [appeal(), appeal({ id: 32, name: 'Иван', phone: '+79030000000' })]
    const find = (search: string) =>
      filterList(rows, { search, searchText: appealSearchText }).map((r) => r.id)
    for (const typed of [
      '912 345',
      '89123456789',
      '+7 (912) 345-67-89',
      '8 (912) 345-67-89',
      '345-67-89',
      '+79123456789',
      'мария',
      'ПЕТРОВА',
    ])
      expect(find(typed), typed).toEqual([31])
    expect(find('903')).toEqual([32])
    expect(formatPhone('+79123456789')).toBe('+7 912 345-67-89')
    expect(formatPhone('12')).toBe('12')
  })
})

const TEXT: AppealCsvText = {
  columns: {
    id: '№',
    createdAt: 'Получено',
    status: 'Статус',
    kind: 'Форма',
    project: 'Проект',
    name: 'Имя',
    phone: 'Телефон',
    email: 'Эл. почта',
    comment: 'Комментарий',
    price: 'Цена',
    date: 'Дата записи',
    specialist: 'Специалист',
    referrer: 'Откуда пришёл',
    page: 'Страница',
    deliveries: 'Отправка в CRM',
  },
  status: { new: 'Новое', in_work: 'В работе', done: 'Обработано', spam: 'Спам' },
  kind: { gift: 'Подарок', price: 'Цена', subscribe: 'Запись' },
  target: { amo: 'amoCRM', bitrix: 'Битрикс24', hook: 'Вебхук' },
  delivery: {
    queued: 'в очереди',
    delivered: 'доставлено',
    failed: 'ошибка',
    skipped: 'не отправлено',
  },
}
const NAMES = { project: () => 'Акция; весна', specialist: () => 'Д-р Иванов' }

describe('CSV for Excel', () => {
  it('is UTF-8 with a BOM, `;`-separated, CRLF lines', () => {
    const csv = appealsCsv([appeal()], TEXT, NAMES)
    expect(csv.startsWith('\uFEFF№;Получено;Статус;Форма;Проект;Имя;Телефон;')).toBe(true)
    expect(csv.endsWith('\r\n')).toBe(true)
    const lines = csv.slice(1).split('\r\n')
    expect(lines).toHaveLength(3)
    expect(lines[1]).toBe(
      [
        '31',
        '20.04.2030 12:15',
        'Новое',
        'Запись',
        '"Акция; весна"',
        'Мария Петрова',
        '79123456789',
        '',
        'Лучше после обеда',
        '',
        '01.05.2030',
        'Д-р Иванов',
        'vk',
        '',
        'spring',
        '',
        '',
        'https://vk.com/',
        'https://promo.example.ru/p/akciya',
        'amoCRM: доставлено',
      ].join(';'),
    )
  })

  it('quotes what must be quoted and defuses formulas', () => {
    expect(csvCell('просто')).toBe('просто')
    expect(csvCell('а;б')).toBe('"а;б"')
    expect(csvCell('он сказал "да"')).toBe('"он сказал ""да"""')
    expect(csvCell('две\nстроки')).toBe('"две\nстроки"')
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`)
    expect(csvCell('+7 912')).toBe("'+7 912")
    expect(csvCell('@me')).toBe("'@me")
    expect(csvCell(-5)).toBe('-5')
    expect(csvCell(null)).toBe('')
  })

  it('writes prices with a decimal comma and Moscow times', () => {
    const csv = appealsCsv(
      [appeal({ kind: 'price', price: 4900.5, specialist_id: null, date: '' })],
      TEXT,
      NAMES,
    )
    expect(csv.split('\r\n')[1]).toContain(';4900,5;;;')
    expect(csvMoment('2030-12-31T21:30:00Z')).toBe('01.01.2031 00:30')
  })
})
