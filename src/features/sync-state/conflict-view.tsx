import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState, type ReactNode } from 'react'
import type { OutboxTable, ParkedConflict } from '../../data/types.ts'
import { centrePercent } from '../../domain/geometry.ts'
import { nestQuotes } from '../../domain/quotes.ts'
import { discardEntry, retryEntry, type ParkedEntry } from '../../sync/client.ts'
import { Button } from '../../ui/button.tsx'
import { notifyError } from '../../ui/notify.tsx'
import classes from './conflict-view.module.css'

/** How a field is named to the person (the record's forms and the editor's inspector say so). */
const FIELD_NAMES: Record<string, MessageDescriptor> = {
  name: msg`Название`,
  description: msg`Описание`,
  address: msg`Адрес`,
  phone: msg`Телефон`,
  position: msg`Должность`,
  email: msg`Эл. почта`,
  department_id: msg`Отделение`,
  location_id: msg`Локация`,
  photo_url: msg`Фото`,
  enabled: msg`Включено`,
  subdomain: msg`Поддомен`,
  client_id: msg`ID интеграции`,
  client_secret: msg`Секретный ключ`,
  redirect_uri: msg`Адрес перенаправления`,
  portal_url: msg`Адрес портала`,
  webhook_url: msg`Вебхук`,
  type: msg`Тип`,
  x: msg`Положение X`,
  y: msg`Положение Y`,
  width: msg`Ширина`,
  height: msg`Высота`,
  rotation: msg`Поворот`,
  zindex: msg`Порядок слоёв`,
  text: msg`Текст`,
  color: msg`Цвет`,
  background: msg`Фон`,
  fontSize: msg`Размер шрифта`,
  font: msg`Шрифт`,
  align: msg`Выравнивание`,
  image_url: msg`Изображение`,
  video_url: msg`Видео`,
  button_text: msg`Текст кнопки`,
  specialist_id: msg`Специалист`,
  date: msg`Дата`,
  action: msg`Текст действия`,
  status: msg`Статус`,
}

/** A request's status (docs/requests.md) by its name on screen, not its code. */
const STATUS_VALUES: Record<string, MessageDescriptor> = {
  new: msg`Новое`,
  in_work: msg`В работе`,
  done: msg`Обработано`,
  spam: msg`Спам`,
}

function useValueText() {
  const { t, i18n } = useLingui()
  return (value: unknown, field?: string): string => {
    const status = field === 'status' && typeof value === 'string' ? STATUS_VALUES[value] : null
    if (status) return t(status)
    if (value === null || value === undefined) return t`не задано`
    if (value === '') return t`пусто`
    if (typeof value === 'boolean') return value ? t`да` : t`нет`
    if (typeof value === 'number') return new Intl.NumberFormat(i18n.locale).format(value)
    if (typeof value === 'string') return `«${nestQuotes(value)}»`
    return JSON.stringify(value)
  }
}

/**
 * How a block type's inspector shows a field: its name and whether it is a colour (`blockFieldOf`,
 * given by the screens that show blocks).
 */
export type BlockFieldOf = (
  type: string,
  field: string,
) => { label: MessageDescriptor | undefined; colour: boolean } | undefined

/** One line of a conflict: a field (or a place, a size) with both sides. */
interface ClashLine {
  key: string
  name: string
  mine: ReactNode
  theirs: ReactNode
}

/**
 * A block's conflict in the inspector's words and units (docs/SYNC.md "Conflicts"): its place as
 * X and Y in per cent of the background, its size in per cent, rotation in degrees, colours as
 * swatches, and each field named as its type's inspector names it.
 */
function useBlockLines(conflict: ParkedConflict, blockField?: BlockFieldOf): ClashLine[] {
  const { t, i18n } = useLingui()
  const text = useValueText()
  const format = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 1 })
  const number = (value: unknown) => (typeof value === 'number' ? value : null)
  const type = String(conflict.current.type ?? '')
  const nameOf = (field: string) => {
    const label = blockField?.(type, field)?.label ?? FIELD_NAMES[field]
    return label ? t(label) : field
  }
  const clash = new Map(conflict.fields.map((c) => [c.field, c]))
  const place = (side: 'mine' | 'theirs') => {
    const x = number(clash.get('x')?.[side])
    const y = number(clash.get('y')?.[side])
    if (x === null || y === null) return text(null)
    const centre = centrePercent({ x, y }, conflict.background)
    const across = format.format(centre.x)
    const down = format.format(centre.y)
    return t`X ${across} %, Y ${down} %`
  }
  const size = (side: 'mine' | 'theirs') => {
    const width = number(clash.get('width')?.[side])
    const height = number(clash.get('height')?.[side])
    if (width === null) return text(null)
    if (height === null) return `${format.format(width)} %`
    const wide = format.format(width)
    const high = format.format(height)
    return t`ширина ${wide} %, высота ${high} %`
  }
  const value = (field: string, v: unknown): ReactNode => {
    if (typeof v === 'string' && blockField?.(type, field)?.colour) return <Swatch colour={v} />
    if (field === 'rotation' && typeof v === 'number') return `${Math.round(v)}°`
    if (typeof v === 'number') return format.format(v)
    return text(v, field)
  }
  const lines: ClashLine[] = []
  const done = new Set<string>()
  for (const { field, mine, theirs } of conflict.fields) {
    if (done.has(field)) continue
    if (field === 'x' || field === 'y') {
      done.add('x').add('y')
      lines.push({ key: 'place', name: t`Положение`, mine: place('mine'), theirs: place('theirs') })
    } else if ((field === 'width' || field === 'height') && clash.has('width')) {
      done.add('width').add('height')
      const name = clash.has('height') ? t`Размер` : nameOf('width')
      lines.push({ key: 'size', name, mine: size('mine'), theirs: size('theirs') })
    } else {
      done.add(field)
      lines.push({
        key: field,
        name: nameOf(field),
        mine: value(field, mine),
        theirs: value(field, theirs),
      })
    }
  }
  return lines
}

/** A colour as a swatch and its code; «нет заливки» for none. */
function Swatch({ colour }: { colour: string }) {
  const { t } = useLingui()
  if (colour === 'transparent') return <>{t`без заливки`}</>
  return (
    <span className={classes.colour}>
      <span className={classes.swatch} style={{ background: colour }} aria-hidden />
      {colour.toUpperCase()}
    </span>
  )
}

function useRecordLines(conflict: ParkedConflict): ClashLine[] {
  const { t } = useLingui()
  const text = useValueText()
  return conflict.fields.map(({ field, mine, theirs }) => {
    const name = FIELD_NAMES[field]
    return {
      key: field,
      name: name ? t(name) : field,
      mine: text(mine, field),
      theirs: text(theirs, field),
    }
  })
}

/**
 * Both sides of each field in question: «Ваше» and «На сервере». A block's (`table` blocks) in its
 * inspector's words and units.
 */
export function ConflictFields({
  conflict,
  table,
  blockField,
  sides,
}: {
  conflict: ParkedConflict
  table: OutboxTable
  blockField?: BlockFieldOf | undefined
  /** What the two sides are called: «Ваше» and «На сервере» unless said otherwise. */
  sides?: { mine: ReactNode; theirs: ReactNode } | undefined
}) {
  const blockLines = useBlockLines(conflict, blockField)
  const recordLines = useRecordLines(conflict)
  if (conflict.fields.length === 0) {
    return (
      <p className={classes.note}>
        <Trans>Вы удалили запись, а на сервере её тем временем изменили.</Trans>
      </p>
    )
  }
  const lines = table === 'blocks' ? blockLines : recordLines
  return (
    <dl className={classes.fields} data-testid="conflict-fields">
      {lines.map(({ key, name, mine, theirs }) => (
        <div key={key} className={classes.field} data-field={key}>
          <dt className={classes.name}>{name}</dt>
          <dd className={classes.value}>
            <span className={classes.side}>{sides ? sides.mine : <Trans>Ваше:</Trans>}</span>{' '}
            <span data-testid="conflict-mine">{mine}</span>
          </dd>
          <dd className={classes.value}>
            <span className={classes.side}>
              {sides ? sides.theirs : <Trans>На сервере:</Trans>}
            </span>{' '}
            <span data-testid="conflict-theirs">{theirs}</span>
          </dd>
        </div>
      ))}
    </dl>
  )
}

/** «Оставить моё» sends this device's values again; «Взять с сервера» takes the server's. */
export function ConflictActions({ entry }: { entry: ParkedEntry }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const deleted = entry.conflict?.fields.length === 0
  const run = async (keepMine: boolean) => {
    setBusy(true)
    try {
      await (keepMine ? retryEntry(entry.seq) : discardEntry(entry.seq))
    } catch {
      notifyError(t`Не удалось выполнить действие. Попробуйте ещё раз.`)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className={classes.actions}>
      <Button variant="light" disabled={busy} onClick={() => void run(true)}>
        {deleted ? <Trans>Удалить всё равно</Trans> : <Trans>Оставить моё</Trans>}
      </Button>
      <Button variant="default" disabled={busy} onClick={() => void run(false)}>
        <Trans>Взять с сервера</Trans>
      </Button>
    </div>
  )
}
