import './appeal-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { IconDownload, IconMessages, IconWifiOff } from '@tabler/icons-react'
import { useNavigate } from '@tanstack/react-router'
import { useCallback, useMemo, useState } from 'react'
import type { AppealKind, AppealStatus } from '../../domain/appeal.ts'
import type { AppealRow } from '../../data/types.ts'
import {
  useAppealList,
  useCurrentWorkspaceId,
  useProjects,
  useRecords,
  useSyncMarks,
  useWorkspaces,
} from '../../mirror/live.ts'
import { useOnline, useRefresh } from '../../sync/client.ts'
import { Alert } from '../../ui/alert.tsx'
import { Badge } from '../../ui/badge.tsx'
import { Button } from '../../ui/button.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { compareText } from '../../ui/list-query.ts'
import { PageHeader } from '../../ui/page-header.tsx'
import { RecordList, recordId, type SortOption } from '../../ui/record-list.tsx'
import rowText from '../../ui/row-text.module.css'
import { NativeSelect, TextInput } from '../../ui/text-input.tsx'
import { NoWorkspace } from '../records/index.ts'
import { AppealDetail } from './appeal-detail.tsx'
import classes from './appeals.module.css'
import { appealsCsv, csvFileName } from './csv.ts'
import {
  appealFilter,
  appealSearchText,
  formatPhone,
  isFiltered,
  moscowToday,
  NO_FILTERS,
  type AppealFilters,
  type AppealPeriod,
} from './filters.ts'
import {
  DELIVERY_NAMES,
  KIND_NAMES,
  STATUS_COLORS,
  STATUS_NAMES,
  STATUS_ORDER,
  TARGET_NAMES,
} from './texts.ts'

/**
 * «Обращения» (docs/requests.md, "The app"): the workspace's visitors' requests, newest first,
 * from the mirror (so it works offline), searched and filtered; a request opens beside the list
 * (below it on a narrow screen) by `?id=`.
 */
export default function AppealsPage({ openId }: { openId: number | null }) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const online = useOnline()
  const workspaceId = useCurrentWorkspaceId()
  const ws = workspaceId ?? null
  useRefresh(ws ? { kind: 'appeals', workspaceId: ws } : null)
  useRefresh(ws ? { kind: 'projects', workspaceId: ws } : null)
  const { items, partial } = useAppealList(ws)
  const projects = useProjects(ws)
  const specialists = useRecords('specialist', ws)
  const workspaces = useWorkspaces()
  const marks = useSyncMarks('appeal')
  const [filters, setFilters] = useState<AppealFilters>(NO_FILTERS)
  const [shown, setShown] = useState<readonly AppealRow[]>([])
  const today = moscowToday()
  const isAdmin = workspaces?.find((w) => w.id === ws)?.role === 'admin'

  const projectName = useMemo(
    () => new Map((projects ?? []).map((p) => [p.id, p.name])),
    [projects],
  )
  const specialistName = useMemo(
    () => new Map((specialists ?? []).map((s) => [s.id, s.name])),
    [specialists],
  )
  const nameOfProject = useCallback(
    (id: number) => projectName.get(id) ?? t`Проект №${id}`,
    [projectName, t],
  )

  const filter = useMemo(() => appealFilter(filters, today), [filters, today])
  const set = (patch: Partial<AppealFilters>) => setFilters((f) => ({ ...f, ...patch }))

  const sorts = useMemo<SortOption<AppealRow>[]>(
    () => [
      { value: 'new', label: t`Сначала новые`, compare: (a, b) => b.id - a.id },
      {
        value: 'status',
        label: t`По статусу`,
        compare: (a, b) =>
          STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status) || b.id - a.id,
      },
      {
        value: 'name',
        label: t`По имени`,
        compare: (a, b) => compareText(a.name, b.name) || b.id - a.id,
      },
    ],
    [t],
  )

  const openAppeal = (id: number | null) =>
    void navigate({ to: '/appeal', search: id === null ? {} : { id } })

  const exportCsv = () => {
    const csv = appealsCsv(
      shown,
      {
        columns: {
          id: t`№`,
          createdAt: t`Получено`,
          status: t`Статус`,
          kind: t`Форма`,
          project: t`Проект`,
          name: t`Имя`,
          phone: t`Телефон`,
          email: t`Эл. почта`,
          comment: t`Комментарий`,
          price: t`Цена, ₽`,
          date: t`Дата записи`,
          specialist: t`Специалист`,
          referrer: t`Откуда пришёл`,
          page: t`Страница`,
          deliveries: t`Отправка в CRM`,
        },
        status: mapNames(STATUS_NAMES, (d) => i18n._(d)),
        kind: mapNames(KIND_NAMES, (d) => i18n._(d)),
        target: mapNames(TARGET_NAMES, (d) => i18n._(d)),
        delivery: mapNames(DELIVERY_NAMES, (d) => i18n._(d)),
      },
      {
        project: nameOfProject,
        specialist: (id) => (id === null ? '' : (specialistName.get(id) ?? '')),
      },
    )
    const link = document.createElement('a')
    link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }))
    link.download = csvFileName(today)
    link.click()
    setTimeout(() => URL.revokeObjectURL(link.href), 1_000)
  }

  const when = (iso: string) =>
    i18n.date(new Date(iso), {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'Europe/Moscow',
    })

  const filterControls = (
    <>
      <NativeSelect
        label={t`Проект`}
        value={filters.project === null ? '' : String(filters.project)}
        onChange={(e) => set({ project: Number(e.currentTarget.value) || null })}
        data={[
          { value: '', label: t`Все проекты` },
          ...(projects ?? [])
            .filter((p) => p.id > 0)
            .map((p) => ({ value: String(p.id), label: p.name })),
        ]}
      />
      <NativeSelect
        label={t`Форма`}
        value={filters.kind}
        onChange={(e) => set({ kind: e.currentTarget.value as AppealKind | '' })}
        data={[
          { value: '', label: t`Все формы` },
          ...(['gift', 'price', 'subscribe'] as const).map((kind) => ({
            value: kind,
            label: i18n._(KIND_NAMES[kind]),
          })),
        ]}
      />
      <NativeSelect
        label={t`Статус`}
        value={filters.status}
        onChange={(e) => set({ status: e.currentTarget.value as AppealStatus | '' })}
        data={[
          { value: '', label: t`Все статусы` },
          ...STATUS_ORDER.map((status) => ({
            value: status,
            label: i18n._(STATUS_NAMES[status]),
          })),
        ]}
      />
      <NativeSelect
        label={t`Период`}
        value={filters.period}
        onChange={(e) => set({ period: e.currentTarget.value as AppealPeriod })}
        data={[
          { value: 'all', label: t`Всё время` },
          { value: 'today', label: t`Сегодня` },
          { value: '7', label: t`7 дней` },
          { value: '30', label: t`30 дней` },
          { value: 'custom', label: t`Выбрать даты` },
        ]}
      />
      {filters.period === 'custom' ? (
        <>
          <TextInput
            type="date"
            label={t`С`}
            value={filters.from}
            max={today}
            onChange={(e) => set({ from: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label={t`По`}
            value={filters.to}
            max={today}
            onChange={(e) => set({ to: e.currentTarget.value })}
          />
        </>
      ) : null}
    </>
  )

  const list = (
    <RecordList
      label={t`Обращения`}
      items={workspaceId === undefined ? undefined : items}
      partial={partial}
      getId={recordId}
      searchText={appealSearchText}
      searchPlaceholder={t`Поиск по имени или телефону`}
      sorts={sorts}
      filters={filterControls}
      filter={filter}
      marks={marks}
      rowHeight={76}
      onShownChange={setShown}
      onOpen={(item) => openAppeal(item.id)}
      renderRow={(item) => (
        <span className={classes.row} data-open={item.id === openId || undefined}>
          <span className={rowText.text}>
            <span className={rowText.name} data-testid="row-name">
              {item.name}
            </span>
            <span className={rowText.details}>
              {[
                formatPhone(item.phone),
                i18n._(KIND_NAMES[item.kind]),
                nameOfProject(item.project_id),
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          </span>
          <span className={classes.rowEnd}>
            <Badge color={STATUS_COLORS[item.status]} data-testid="row-status">
              {i18n._(STATUS_NAMES[item.status])}
            </Badge>
            <span className={classes.time}>{when(item.created_at)}</span>
          </span>
        </span>
      )}
      empty={
        <EmptyState
          icon={IconMessages}
          title={<Trans>Обращений пока нет</Trans>}
          description={
            online ? (
              <Trans>
                Здесь появятся заявки из форм подарка, цены и записи на опубликованных страницах:
                сразу, без перезагрузки. Опубликуйте проект и поделитесь ссылкой.
              </Trans>
            ) : (
              <Trans>
                На этом устройстве ещё нет сохранённых обращений, а связи нет. Откройте раздел,
                когда появится интернет.
              </Trans>
            )
          }
        />
      }
    />
  )

  return (
    <div className={classes.page}>
      <PageHeader
        title={t`Обращения`}
        actions={
          items && items.length > 0 ? (
            <Button
              variant="default"
              leftSection={<IconDownload size={18} aria-hidden />}
              onClick={exportCsv}
              disabled={shown.length === 0}
            >
              <Trans>Скачать CSV</Trans>
            </Button>
          ) : null
        }
      />
      {!online && items && items.length > 0 ? (
        <Alert color="orange" icon={IconWifiOff} role="status">
          <Trans>
            Нет связи: показаны обращения, сохранённые на устройстве. Новые появятся, когда связь
            вернётся; смена статуса отправится сама.
          </Trans>
        </Alert>
      ) : null}
      {workspaceId === null ? (
        <NoWorkspace />
      ) : (
        <div className={classes.layout} data-detail={openId !== null || undefined}>
          <div className={classes.list}>
            {isFiltered(filters) ? (
              <Button
                variant="subtle"
                className={classes.reset}
                onClick={() => setFilters(NO_FILTERS)}
              >
                <Trans>Сбросить фильтры</Trans>
              </Button>
            ) : null}
            {list}
          </div>
          {openId !== null ? (
            <aside className={classes.detail} aria-label={t`Обращение`}>
              <AppealDetail
                id={openId}
                workspaceId={workspaceId ?? null}
                isAdmin={isAdmin}
                projectName={nameOfProject}
                specialistName={(id) => specialistName.get(id) ?? null}
                onClose={() => openAppeal(null)}
              />
            </aside>
          ) : null}
        </div>
      )}
    </div>
  )
}

function mapNames<K extends string, V>(
  names: Record<K, V>,
  f: (v: V) => string,
): Record<K, string> {
  return Object.fromEntries(Object.entries(names).map(([k, v]) => [k, f(v as V)])) as Record<
    K,
    string
  >
}
