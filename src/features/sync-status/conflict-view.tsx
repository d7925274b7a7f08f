import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { ParkedConflict } from '../../data/types.ts'
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

/** Both sides of each field in question: «Ваше» and «На сервере». */
export function ConflictFields({ conflict }: { conflict: ParkedConflict }) {
  const { t } = useLingui()
  const text = useValueText()
  if (conflict.fields.length === 0) {
    return (
      <p className={classes.note}>
        <Trans>Вы удалили запись, а на сервере её тем временем изменили.</Trans>
      </p>
    )
  }
  return (
    <dl className={classes.fields} data-testid="conflict-fields">
      {conflict.fields.map(({ field, mine, theirs }) => {
        const name = FIELD_NAMES[field]
        return (
          <div key={field} className={classes.field} data-field={field}>
            <dt className={classes.name}>{name ? t(name) : field}</dt>
            <dd className={classes.value}>
              <span className={classes.side}>
                <Trans>Ваше:</Trans>
              </span>{' '}
              <span data-testid="conflict-mine">{text(mine, field)}</span>
            </dd>
            <dd className={classes.value}>
              <span className={classes.side}>
                <Trans>На сервере:</Trans>
              </span>{' '}
              <span data-testid="conflict-theirs">{text(theirs, field)}</span>
            </dd>
          </div>
        )
      })}
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
