import { Trans, useLingui } from '@lingui/react/macro'
import { IconArrowLeft, IconRefresh, IconTrash } from '@tabler/icons-react'
import { useState, type ReactNode } from 'react'
import { retryAppeal } from '../../api/appeals.ts'
import { ApiError, NetworkError } from '../../api/client.ts'
import { UTM_KEYS, type AppealDelivery, type AppealStatus } from '../../domain/appeal.ts'
import { nestQuotes } from '../../domain/quotes.ts'
import { commands } from '../../mirror/commands.ts'
import { useAppeal, useRecords, useSyncMarks } from '../../mirror/live.ts'
import { refresh, useOnline, useRefresh } from '../../sync/client.ts'
import { Badge } from '../../ui/badge.tsx'
import { Button } from '../../ui/button.tsx'
import { confirmDelete } from '../../ui/confirm-delete.ts'
import controls from '../../ui/controls.module.css'
import { ParkedNotice, runCommand, useParkedOf } from '../records/index.ts'
import classes from './appeals.module.css'
import { formatPhone } from './filters.ts'
import {
  DELIVERY_COLORS,
  DELIVERY_NAMES,
  KIND_NAMES,
  STATUS_NAMES,
  STATUS_ORDER,
  TARGET_NAMES,
} from './texts.ts'

// Toasts load on first use (runCommand does the same).
const notify = () => import('../../ui/notify.tsx')

export interface AppealDetailProps {
  id: number
  workspaceId: number | null
  isAdmin: boolean
  projectName: (id: number) => string
  specialistName: (id: number) => string | null
  onClose: () => void
}

/**
 * One request whole (docs/requests.md, "The app"): what the visitor sent, where from, its status
 * (changed here through the outbox, so offline too) and each delivery to a CRM with «Повторить
 * отправку», which asks the server at once and so needs the network.
 */
export function AppealDetail(props: AppealDetailProps) {
  const { t, i18n } = useLingui()
  const { id, workspaceId } = props
  const appeal = useAppeal(id)
  const online = useOnline()
  const marks = useSyncMarks('appeal')
  const parked = useParkedOf('appeal', id)
  const amo = useRecords('amo', workspaceId)
  const bitrix = useRecords('bitrix', workspaceId)
  const [retrying, setRetrying] = useState(false)
  useRefresh(workspaceId ? { kind: 'appeal', workspaceId, id } : null)

  const back = (
    <Button
      variant="subtle"
      leftSection={<IconArrowLeft size={18} aria-hidden />}
      onClick={props.onClose}
    >
      <Trans>К списку</Trans>
    </Button>
  )

  if (appeal === undefined)
    return (
      <div className={classes.card} role="status" aria-busy="true" aria-label={t`Загрузка`}>
        <div className={controls.skeleton} style={{ height: 240 }} />
      </div>
    )
  if (appeal === null)
    return (
      <div className={classes.card} data-testid="appeal-missing">
        {back}
        <p className={classes.title}>
          <Trans>Обращение не найдено</Trans>
        </p>
        <p className={classes.dimmed}>
          <Trans>Его удалили, или оно ещё не загрузилось на это устройство.</Trans>
        </p>
      </div>
    )

  const moment = (iso: string) =>
    i18n.date(new Date(iso), {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: 'Europe/Moscow',
    })
  const day = (value: string) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value)
    if (!m) return value
    return i18n.date(new Date(`${m[1]}-${m[2]}-${m[3]}T12:00:00Z`), {
      dateStyle: 'long',
      timeZone: 'UTC',
    })
  }
  const pending = marks.get(id) === 'pending'
  const received = moment(appeal.created_at)
  const name = nestQuotes(appeal.name)

  const changeStatus = (status: AppealStatus) => {
    const label = i18n._(STATUS_NAMES[status])
    void runCommand(() => commands.setAppealStatus(id, status), t`Статус обращения: ${label}`)
  }

  const remove = async () => {
    const ok = await confirmDelete({
      title: t`Удалить обращение?`,
      message: t`Обращение от «${name}» удалится у всех участников пространства. Лиды в CRM останутся.`,
    })
    if (!ok) return
    const done = await runCommand(
      () => commands.deleteAppeal(id).then(() => true),
      t`Обращение удалено`,
    )
    if (done) props.onClose()
  }

  const retry = async () => {
    setRetrying(true)
    try {
      await retryAppeal(id)
      if (workspaceId) await refresh({ kind: 'appeal', workspaceId, id })
      void notify().then((m) => m.notifySuccess(t`Обращение снова отправляется в CRM`))
    } catch (error) {
      const message =
        error instanceof NetworkError
          ? t`Нет связи с сервером. Повторите, когда появится интернет.`
          : error instanceof ApiError && error.message
            ? error.message
            : t`Не удалось повторить отправку. Попробуйте ещё раз.`
      void notify().then((m) => m.notifyError(message))
    } finally {
      setRetrying(false)
    }
  }

  const targetName = (d: AppealDelivery) => {
    const system = i18n._(TARGET_NAMES[d.integration_kind])
    const records: { id: number; name: string }[] =
      d.integration_kind === 'amo'
        ? (amo ?? [])
        : d.integration_kind === 'bitrix'
          ? (bitrix ?? [])
          : []
    const own = records.find((r) => r.id === d.integration_id)?.name
    return own ? `${system} · ${own}` : system
  }
  const canRetry = appeal.deliveries.some(
    (d) => d.state === 'failed' || (d.state === 'skipped' && appeal.status !== 'spam'),
  )
  const utm = UTM_KEYS.filter((key) => appeal.utm[key])
  const specialistId = appeal.specialist_id
  const specialist = specialistId === null ? null : props.specialistName(specialistId)

  return (
    <div className={classes.card} data-testid="appeal-detail">
      <div className={classes.detailTop}>
        {back}
        {props.isAdmin ? (
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={18} aria-hidden />}
            onClick={() => void remove()}
          >
            <Trans>Удалить</Trans>
          </Button>
        ) : null}
      </div>
      <div>
        <h2 className={classes.title}>{appeal.name}</h2>
        <p className={classes.dimmed}>
          <Trans>
            Обращение №{id} · {received}
          </Trans>
        </p>
      </div>

      <ParkedNotice entries={parked} />

      <fieldset className={classes.statuses}>
        <legend className={classes.legend}>
          <Trans>Статус</Trans>
        </legend>
        <div className={classes.statusButtons}>
          {STATUS_ORDER.map((status) => (
            <Button
              key={status}
              variant={appeal.status === status ? 'filled' : 'default'}
              aria-pressed={appeal.status === status}
              onClick={() => changeStatus(status)}
            >
              {i18n._(STATUS_NAMES[status])}
            </Button>
          ))}
        </div>
        {pending ? (
          <p className={classes.dimmed} role="status">
            {online ? (
              <Trans>Сохраняется на сервере…</Trans>
            ) : (
              <Trans>Сохранено на устройстве: отправится на сервер, когда появится связь.</Trans>
            )}
          </p>
        ) : null}
      </fieldset>

      <dl className={classes.fields}>
        <Row label={t`Телефон`}>
          <a href={`tel:${appeal.phone}`}>{formatPhone(appeal.phone)}</a>
        </Row>
        {appeal.email ? (
          <Row label={t`Эл. почта`}>
            <a href={`mailto:${appeal.email}`}>{appeal.email}</a>
          </Row>
        ) : null}
        {appeal.comment ? (
          <Row label={t`Комментарий`}>
            <span className={classes.prewrap}>{appeal.comment}</span>
          </Row>
        ) : null}
        <Row label={t`Форма`}>{i18n._(KIND_NAMES[appeal.kind])}</Row>
        <Row label={t`Проект`}>{props.projectName(appeal.project_id)}</Row>
        {appeal.price !== null ? (
          <Row label={t`Цена`}>
            {i18n.number(appeal.price, { style: 'currency', currency: 'RUB' })}
          </Row>
        ) : null}
        {appeal.date ? <Row label={t`Дата записи`}>{day(appeal.date)}</Row> : null}
        {specialistId !== null ? (
          <Row label={t`Специалист`}>{specialist ?? t`Специалист №${specialistId}`}</Row>
        ) : null}
        <Row label={t`Страница`}>
          {appeal.page_url ? (
            <a href={appeal.page_url} target="_blank" rel="noreferrer noopener">
              {appeal.page_url}
            </a>
          ) : (
            t`не указана`
          )}
        </Row>
        <Row label={t`Откуда пришёл`}>{appeal.referrer || t`Прямой заход`}</Row>
        <Row label={t`UTM-метки`}>
          {utm.length === 0 ? (
            t`нет`
          ) : (
            <span className={classes.utm}>
              {utm.map((key) => (
                <span key={key}>
                  <code>{key}</code>: {appeal.utm[key]}
                </span>
              ))}
            </span>
          )}
        </Row>
      </dl>

      <section aria-labelledby={`deliveries-${id}`} className={classes.deliveries}>
        <h3 id={`deliveries-${id}`} className={classes.subtitle}>
          <Trans>Отправка в CRM</Trans>
        </h3>
        {appeal.deliveries.length === 0 ? (
          <p className={classes.dimmed}>
            <Trans>
              Когда пришло обращение, ни одна интеграция не была включена: оно есть только здесь.
            </Trans>
          </p>
        ) : (
          <ul className={classes.deliveryList}>
            {appeal.deliveries.map((d, index) => (
              <DeliveryItem
                key={`${d.integration_kind}-${d.integration_id ?? index}`}
                delivery={d}
                name={targetName(d)}
                moment={moment}
              />
            ))}
          </ul>
        )}
        {canRetry ? (
          <div className={classes.retry}>
            <Button
              variant="light"
              leftSection={<IconRefresh size={18} aria-hidden />}
              onClick={() => void retry()}
              disabled={!online || retrying}
              loading={retrying}
            >
              <Trans>Повторить отправку</Trans>
            </Button>
            {!online ? (
              <p className={classes.dimmed} role="status">
                <Trans>
                  Повторить отправку можно только при подключении к интернету: её выполняет сервер.
                </Trans>
              </p>
            ) : null}
          </div>
        ) : null}
      </section>
    </div>
  )
}

function DeliveryItem({
  delivery: d,
  name,
  moment,
}: {
  delivery: AppealDelivery
  name: string
  moment: (iso: string) => string
}) {
  const { i18n } = useLingui()
  const { attempts, crm_id: crmId, last_error: lastError } = d
  const next = d.state === 'queued' && d.next_attempt_at ? moment(d.next_attempt_at) : null
  return (
    <li className={classes.delivery} data-testid="delivery">
      <div className={classes.deliveryTop}>
        <span className={classes.deliveryName}>{name}</span>
        <Badge color={DELIVERY_COLORS[d.state]}>{i18n._(DELIVERY_NAMES[d.state])}</Badge>
      </div>
      <p className={classes.dimmed}>
        <Trans>Попыток: {attempts}</Trans>
        {crmId ? (
          <>
            {' · '}
            <Trans>ID в CRM: {crmId}</Trans>
          </>
        ) : null}
        {next ? (
          <>
            {' · '}
            <Trans>Следующая попытка: {next}</Trans>
          </>
        ) : null}
      </p>
      {lastError ? (
        <p className={classes.error}>
          <Trans>Последняя ошибка: {lastError}</Trans>
        </p>
      ) : null}
    </li>
  )
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={classes.field}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  )
}
