import { Trans, useLingui } from '@lingui/react/macro'
import { IconSearch, IconSortAscending, IconSortDescending, IconX } from '@tabler/icons-react'
import {
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react'
import { Button, IconButton } from './button.tsx'
import controls from './controls.module.css'
import { FirstScreenMark } from './first-screen.tsx'
import { filterList, sortList, type SortDirection, type SortOption } from './list-query.ts'
import classes from './record-list.module.css'
import { SyncMark, type SyncMarkState } from './sync-mark.tsx'
import {
  clampRange,
  drawnRows,
  rowsInView,
  useFocusedRow,
  useFollowedRows,
  type RowRange,
} from './virtual-rows.ts'
import { NativeSelect, TextInput } from './text-input.tsx'

export type { SortOption } from './list-query.ts'

/**
 * `getId` for records (every list's rows have an `id`). A function that stays the same between
 * renders: the list sorts again whenever `getId` changes, and an inline arrow changes every time.
 */
export const recordId = (item: { id: number }): number => item.id

export interface RecordListProps<T> {
  /** `undefined` while the mirror loads. */
  items: readonly T[] | undefined
  /**
   * `items` holds only the first screen of a long list whose whole read is still under way
   * (`useRecordList`): the count says the list is loading instead of a wrong total.
   */
  partial?: boolean
  getId: (item: T) => number
  /** Text the search box looks in. */
  searchText: (item: T) => string
  /** The first is the default; name first, then the screen's second key. */
  sorts: SortOption<T>[]
  /** The row's content (name and details); the whole area opens the record. */
  renderRow: (item: T) => ReactNode
  /** Controls at the row's end (a switch, a delete button): kept out of the open area. */
  renderActions?: (item: T) => ReactNode
  onOpen?: (item: T) => void
  /** A row being edited in place (it holds its own inputs, so it is not one big button). */
  editingId?: number | null
  marks?: ReadonlyMap<number, SyncMarkState>
  /** Filter controls shown next to the search box. */
  filters?: ReactNode
  /** The filters' predicate. */
  filter?: (item: T) => boolean
  /** When the list has no records at all: what to do next. */
  empty: ReactNode
  /** Accessible name of the list. */
  label: string
  searchPlaceholder?: string
  rowHeight?: number
  /** Told the rows shown (searched, filtered, sorted) whenever they change: a screen's export. */
  onShownChange?: (rows: readonly T[]) => void
}

/**
 * A searchable, sortable list of records that stays smooth at 10,000 rows: only the rows in view
 * are rendered (`useWindowRows`, rows of one height scrolled with the page), search and sort run
 * on a deferred value so typing never waits for the list.
 */
export function RecordList<T>(props: RecordListProps<T>) {
  const { t } = useLingui()
  const [search, setSearch] = useState('')
  const [sortKey, setSortKey] = useState(props.sorts[0]?.value ?? '')
  const [direction, setDirection] = useState<SortDirection>('asc')
  const deferredSearch = useDeferredValue(search)
  const { items, searchText, filter, getId } = props
  const sort = props.sorts.find((option) => option.value === sortKey) ?? props.sorts[0]

  // Sorted once per list, order and direction (10,000 rows take ~100 ms on a tablet); a search, a
  // filter, or a new sort option with the same comparison (a screen rebuilding its options when
  // related records arrive) only filters the sorted rows again.
  const compare = sort?.compare
  const sorted = useMemo(
    () =>
      items ? sortList(items, { compare, direction, tieBreak: (a, b) => getId(a) - getId(b) }) : [],
    [items, compare, direction, getId],
  )
  const shown = useMemo(
    () => filterList(sorted, { search: deferredSearch, searchText, filter }),
    [sorted, deferredSearch, searchText, filter],
  )
  const { onShownChange } = props
  useEffect(() => {
    onShownChange?.(shown)
  }, [shown, onShownChange])

  const sortControls = (
    <div className={classes.sort}>
      {/* Native select: the platform's own picker on a tablet, and light on the first load. */}
      <NativeSelect
        className={classes.sortSelect}
        label={t`Сортировка`}
        data={props.sorts.map((option) => ({ value: option.value, label: option.label }))}
        value={sort?.value ?? ''}
        onChange={(event) => setSortKey(event.currentTarget.value)}
      />
      <IconButton
        variant="default"
        onClick={() => setDirection((d) => (d === 'asc' ? 'desc' : 'asc'))}
        // One name whatever the state (screen readers hear "pressed" from aria-pressed).
        aria-label={t`Обратный порядок`}
        title={direction === 'asc' ? t`По возрастанию` : t`По убыванию`}
        aria-pressed={direction === 'desc'}
      >
        {direction === 'asc' ? <IconSortAscending size={20} /> : <IconSortDescending size={20} />}
      </IconButton>
    </div>
  )
  // With filters, the search has a row of its own and the filters and the sort share the next one
  // in equal columns, so a portrait tablet shows every label and the search's whole placeholder.
  const toolbar = (
    <div className={classes.toolbar} data-with-filters={props.filters ? true : undefined}>
      <TextInput
        className={classes.search}
        type="search"
        leftSection={<IconSearch size={18} aria-hidden />}
        placeholder={props.searchPlaceholder ?? t`Поиск`}
        aria-label={t`Поиск`}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        rightSection={
          search ? (
            <IconButton
              variant="subtle"
              color="gray"
              onClick={() => setSearch('')}
              aria-label={t`Очистить поиск`}
            >
              <IconX size={18} />
            </IconButton>
          ) : null
        }
      />
      {props.filters ? (
        <div className={classes.filters}>
          {props.filters}
          {sortControls}
        </div>
      ) : (
        sortControls
      )}
    </div>
  )

  if (items === undefined) {
    return (
      <div className={classes.stack}>
        {toolbar}
        <div
          className={classes.skeletons}
          role="status"
          aria-busy="true"
          aria-label={t`Загрузка списка`}
          data-testid="list-loading"
        >
          {Array.from({ length: 6 }, (_, index) => (
            <div
              key={index}
              className={controls.skeleton}
              style={{ height: props.rowHeight ?? 72 }}
            />
          ))}
        </div>
      </div>
    )
  }

  if (items.length === 0) return <div className={classes.stack}>{props.empty}</div>
  const found = shown.length
  const total = items.length

  return (
    <div className={classes.stack}>
      {toolbar}
      <p className={classes.count} aria-live="polite">
        {props.partial ? (
          <Trans>Загружается весь список…</Trans>
        ) : found === total ? (
          <Trans>Всего: {total}</Trans>
        ) : (
          <Trans>
            Найдено: {found} из {total}
          </Trans>
        )}
      </p>
      {shown.length === 0 ? (
        <div className={classes.noMatches} data-testid="no-matches">
          <p className={classes.noMatchesTitle}>
            <Trans>Ничего не найдено</Trans>
          </p>
          <p className={classes.count}>
            <Trans>Измените запрос или сбросьте фильтры.</Trans>
          </p>
          {search ? (
            <Button variant="light" onClick={() => setSearch('')}>
              <Trans>Сбросить поиск</Trans>
            </Button>
          ) : null}
        </div>
      ) : (
        <>
          <VirtualRows {...props} rows={shown} />
          {/* Rows on screen: the first screen is drawn. An empty list does not say so (a mirror
              still filling is empty too); its page counts as drawn a moment after load. */}
          <FirstScreenMark />
        </>
      )}
    </div>
  )
}

function VirtualRows<T>(props: RecordListProps<T> & { rows: T[] }) {
  const { rows, getId } = props
  const rowHeight = props.rowHeight ?? 72
  const listRef = useRef<HTMLDivElement>(null)
  const [scrollMargin, setScrollMargin] = useState(0)

  // The list starts below the page header and toolbar: the virtualizer needs that offset.
  useLayoutEffect(() => {
    const measure = () => {
      const element = listRef.current
      if (element) setScrollMargin(element.getBoundingClientRect().top + window.scrollY)
    }
    measure()
    window.addEventListener('resize', measure)
    // A list hidden and shown again (a request open instead of the list on a phone) moves too.
    const observer =
      typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => measure())
    if (listRef.current) observer?.observe(listRef.current)
    return () => {
      window.removeEventListener('resize', measure)
      observer?.disconnect()
    }
  }, [rows.length])

  const range = useWindowRows(rows.length, rowHeight, scrollMargin)
  // The row with the keyboard's focus and the row being edited stay drawn wherever the page
  // scrolls: taken out, they would lose the focus and the edit's draft.
  const focus = useFocusedRow('data-record-id')
  const indexOf = (id: number | null | undefined) =>
    id === null || id === undefined ? -1 : rows.findIndex((item) => getId(item) === id)
  const focusedId = focus.focused === null ? null : Number(focus.focused)
  const shownRows = drawnRows(range, rows.length, [indexOf(focusedId), indexOf(props.editingId)])

  return (
    <div className={classes.frame}>
      <div
        ref={listRef}
        role="list"
        aria-label={props.label}
        className={classes.rows}
        style={{ height: rows.length * rowHeight }}
        onFocus={focus.onFocus}
        onBlur={focus.onBlur}
      >
        {shownRows.map((index) => {
          const item = rows[index] as T
          const id = getId(item)
          return (
            <div
              key={id}
              role="listitem"
              aria-setsize={rows.length}
              aria-posinset={index + 1}
              className={classes.row}
              data-record-id={id}
              style={{ height: rowHeight, transform: `translateY(${index * rowHeight}px)` }}
            >
              {props.onOpen && props.editingId !== id ? (
                <button
                  type="button"
                  className={`${controls.plain} ${classes.open}`}
                  onClick={() => props.onOpen?.(item)}
                >
                  {props.renderRow(item)}
                </button>
              ) : (
                <div className={classes.open}>{props.renderRow(item)}</div>
              )}
              <div className={classes.actions}>
                <SyncMark state={props.marks?.get(id)} />
                {props.renderActions?.(item)}
              </div>
            </div>
          )
        })}
      </div>
    </div>
  )
}

/**
 * The rows of a list in the window (with `OVERSCAN` more each side, `virtual-rows.ts`), for rows
 * of one height `rowHeight` that scroll with the page and start `scrollMargin` px below its top:
 * the list's own window virtualizer, about 1 KiB where a library's was 8.5 KiB of the first screen
 * (docs/performance.md).
 */
function useWindowRows(count: number, rowHeight: number, scrollMargin: number): RowRange {
  const shown = useFollowedRows(
    () => rowsInView(count, rowHeight, window.scrollY - scrollMargin, window.innerHeight),
    (update) => {
      window.addEventListener('scroll', update, { passive: true })
      window.addEventListener('resize', update)
      return () => {
        window.removeEventListener('scroll', update)
        window.removeEventListener('resize', update)
      }
    },
    [count, rowHeight, scrollMargin],
  )
  // Fewer rows than at the last scroll (a search): never past the end before the effect runs.
  return clampRange(shown, count)
}
