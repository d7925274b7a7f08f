import { Trans, useLingui } from '@lingui/react/macro'
import { IconChartLine, IconDownload } from '@tabler/icons-react'
import { lazy, Suspense, useEffect, useMemo, useState } from 'react'
import { analyticsSummary } from '../../api/analytics.ts'
import { NetworkError } from '../../api/client.ts'
import { keepSummary, keptSummary } from '../../data/analytics-kept.ts'
import {
  daysBetween,
  isDay,
  SUMMARY_MAX_DAYS,
  type AnalyticsSummary,
  type Device,
  type SummaryQuery,
} from '../../domain/analytics.ts'
import { useCurrentWorkspaceId, useProjects } from '../../mirror/live.ts'
import { Button } from '../../ui/button.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { FirstScreenMark } from '../../ui/first-screen.tsx'
import { Group, Paper, SimpleGrid, Stack, Text } from '../../ui/layout.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { NativeSelect, TextInput } from '../../ui/text-input.tsx'
import { isEmpty, lastDays, moscowToday, percent, summaryCsv, type Preset } from './figures.ts'

const DaysChart = lazy(() => import('./chart.tsx'))

type Period = Preset | 'custom'

/** «Аналитика» (docs/analytics.md): a workspace's published pages, their views and requests. */
export default function AnalyticsPage() {
  const { t, i18n } = useLingui()
  const workspaceId = useCurrentWorkspaceId()
  const projects = useProjects(workspaceId ?? null)
  const today = moscowToday()
  const [period, setPeriod] = useState<Period>(30)
  const [custom, setCustom] = useState(() => lastDays(30, today))
  const [projectId, setProjectId] = useState<number | null>(null)
  const [answer, setAnswer] = useState<
    | {
        kind: 'shown'
        summary: AnalyticsSummary
        key: string
        /** Shown from the mirror: while the server is asked, or offline (`offline`). */
        kept: { at: string; query: SummaryQuery; offline: boolean } | null
      }
    | { key: string; kind: 'failed'; offline: boolean }
    | null
  >(null)

  const range = period === 'custom' ? custom : lastDays(period, today)
  const valid =
    isDay(range.from) &&
    isDay(range.to) &&
    range.from <= range.to &&
    daysBetween(range.from, range.to).length <= SUMMARY_MAX_DAYS

  // What the screen shows belongs to one query; another one shows «Загружаем…» until it answers.
  const shownKey = `${workspaceId}:${range.from}:${range.to}:${projectId ?? ''}`
  const state = answer && answer.key === shownKey ? answer : { kind: 'loading' as const }

  useEffect(() => {
    if (!workspaceId || !valid) return
    const key = shownKey
    let live = true
    let answered = false
    const query: SummaryQuery = {
      workspace_id: workspaceId,
      from: range.from,
      to: range.to,
      ...(projectId ? { project_id: projectId } : {}),
    }
    // The kept figures paint at once; the server's answer replaces them.
    void keptSummary(query).then(
      (kept) => {
        if (!live || answered || !kept) return
        setAnswer({
          key,
          kind: 'shown',
          summary: kept.summary,
          kept: { at: kept.at, query: kept.query, offline: false },
        })
      },
      () => undefined,
    )
    analyticsSummary(query).then(
      (summary) => {
        answered = true
        if (!live) return
        setAnswer({ key, kind: 'shown', summary, kept: null })
        // No room in the mirror: the screen works online all the same.
        keepSummary(query, summary).catch(() => undefined)
      },
      async (error: unknown) => {
        answered = true
        const offline = error instanceof NetworkError
        const kept = offline ? await keptSummary(query, { fallback: true }).catch(() => null) : null
        if (!live) return
        setAnswer(
          kept
            ? {
                key,
                kind: 'shown',
                summary: kept.summary,
                kept: { at: kept.at, query: kept.query, offline: true },
              }
            : { key, kind: 'failed', offline },
        )
      },
    )
    return () => {
      live = false
    }
  }, [shownKey, workspaceId, range.from, range.to, projectId, valid])

  const labels = useMemo(
    () => ({ views: t`Просмотры`, visitors: t`Посетители`, requests: t`Заявки` }),
    [t],
  )
  const deviceName: Record<Device, string> = {
    phone: t`Телефоны`,
    tablet: t`Планшеты`,
    computer: t`Компьютеры`,
  }
  const number = (n: number) => i18n.number(n)
  const share = (fraction: number) =>
    `${percent(fraction).replace('.', i18n.locale === 'ru' ? ',' : '.')} %`

  const exportCsv = (summary: AnalyticsSummary) => {
    const csv = summaryCsv(summary, {
      project: t`Страница`,
      views: labels.views,
      visitors: labels.visitors,
      requests: labels.requests,
      conversion: t`Конверсия, %`,
      total: t`Всего`,
    })
    const link = document.createElement('a')
    link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }))
    link.download = `analytics-${range.from}-${range.to}.csv`
    link.click()
    setTimeout(() => URL.revokeObjectURL(link.href), 1_000)
  }

  const shown = state.kind === 'shown' ? state.summary : null
  return (
    <Stack gap="lg" maw={1100}>
      <PageHeader
        title={t`Аналитика`}
        actions={
          shown && !isEmpty(shown) ? (
            <Button
              variant="default"
              leftSection={<IconDownload size={18} aria-hidden />}
              onClick={() => exportCsv(shown)}
            >
              <Trans>Скачать CSV</Trans>
            </Button>
          ) : null
        }
      />
      <Group gap="md" align="flex-end" wrap="wrap">
        <NativeSelect
          label={t`Период`}
          value={String(period)}
          onChange={(e) => {
            const value = e.currentTarget.value
            setPeriod(value === 'custom' ? 'custom' : (Number(value) as Preset))
          }}
          data={[
            { value: '7', label: t`7 дней` },
            { value: '30', label: t`30 дней` },
            { value: '90', label: t`90 дней` },
            { value: 'custom', label: t`Выбрать даты` },
          ]}
        />
        {period === 'custom' ? (
          <>
            <TextInput
              type="date"
              label={t`С`}
              value={custom.from}
              max={today}
              onChange={(e) => setCustom({ ...custom, from: e.currentTarget.value })}
            />
            <TextInput
              type="date"
              label={t`По`}
              value={custom.to}
              max={today}
              error={valid ? undefined : t`Проверьте даты: не больше года, начало не позже конца`}
              onChange={(e) => setCustom({ ...custom, to: e.currentTarget.value })}
            />
          </>
        ) : null}
        <NativeSelect
          label={t`Страницы`}
          value={projectId ? String(projectId) : ''}
          onChange={(e) => setProjectId(Number(e.currentTarget.value) || null)}
          data={[
            { value: '', label: t`Все проекты` },
            ...(projects ?? [])
              .filter((p) => p.id > 0)
              .map((p) => ({ value: String(p.id), label: p.name })),
          ]}
        />
      </Group>
      {state.kind === 'shown' && state.kept?.offline ? (
        <OfflineNote
          at={state.kept.at}
          other={
            state.kept.query.from !== range.from ||
            state.kept.query.to !== range.to ||
            (state.kept.query.project_id ?? null) !== projectId
              ? state.kept.query
              : null
          }
        />
      ) : null}
      {state.kind === 'loading' ? (
        <Text c="dimmed">
          <Trans>Загружаем данные…</Trans>
        </Text>
      ) : null}
      {state.kind === 'failed' ? (
        <Text c="red" role="alert">
          {state.offline ? (
            <Trans>
              Нет связи, а сохранённых данных ещё нет. Откройте раздел, когда появится интернет.
            </Trans>
          ) : (
            <Trans>Не удалось загрузить данные. Попробуйте ещё раз позже.</Trans>
          )}
        </Text>
      ) : null}
      {shown && isEmpty(shown) ? (
        <EmptyState
          icon={IconChartLine}
          title={<Trans>Пока нет данных</Trans>}
          description={
            <Trans>
              Опубликуйте проект кнопкой «Опубликовать» в списке проектов или в редакторе и
              поделитесь ссылкой: здесь появятся просмотры, посетители и заявки.
            </Trans>
          }
        />
      ) : null}
      {shown && !isEmpty(shown) ? (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
            {[
              [labels.views, number(shown.totals.views)],
              [labels.visitors, number(shown.totals.visitors)],
              [labels.requests, number(shown.totals.submissions)],
              [t`Конверсия`, share(shown.totals.conversion)],
            ].map(([label, value]) => (
              <Paper key={label} withBorder radius="lg" p="md">
                <Text c="dimmed" size="sm">
                  {label}
                </Text>
                <Text fw={700} size="xl" data-testid={`total-${label}`}>
                  {value}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
          <Paper withBorder radius="lg" p="md">
            <Suspense fallback={<div style={{ height: 260 }} />}>
              <DaysChart days={shown.days} labels={labels} />
            </Suspense>
          </Paper>
          <Paper withBorder radius="lg" p="md">
            <table style={{ width: '100%', borderCollapse: 'collapse' }}>
              <caption style={{ textAlign: 'start', fontWeight: 600, paddingBottom: 8 }}>
                <Trans>По страницам</Trans>
              </caption>
              <thead>
                <tr>
                  <th style={{ textAlign: 'start' }}>
                    <Trans>Страница</Trans>
                  </th>
                  <th>{labels.views}</th>
                  <th>{labels.visitors}</th>
                  <th>{labels.requests}</th>
                  <th>
                    <Trans>Конверсия</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.projects.map((p) => (
                  <tr key={p.project_id}>
                    <td>{p.name}</td>
                    <td style={{ textAlign: 'end' }}>{number(p.views)}</td>
                    <td style={{ textAlign: 'end' }}>{number(p.visitors)}</td>
                    <td style={{ textAlign: 'end' }}>{number(p.submissions)}</td>
                    <td style={{ textAlign: 'end' }}>{share(p.conversion)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Paper>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Paper withBorder radius="lg" p="md">
              <Text fw={600} mb="sm">
                <Trans>Источники</Trans>
              </Text>
              {shown.sources.map((s) => (
                <Group key={s.source} justify="space-between">
                  <Text>{s.source === '' ? t`Прямые заходы` : s.source}</Text>
                  <Text c="dimmed">
                    {number(s.views)} · {number(s.visitors)} · {number(s.submissions)}
                  </Text>
                </Group>
              ))}
            </Paper>
            <Paper withBorder radius="lg" p="md">
              <Text fw={600} mb="sm">
                <Trans>Устройства</Trans>
              </Text>
              {shown.devices.map((d) => (
                <Group key={d.device} justify="space-between">
                  <Text>{deviceName[d.device]}</Text>
                  <Text c="dimmed">{number(d.views)}</Text>
                </Group>
              ))}
            </Paper>
          </SimpleGrid>
        </>
      ) : null}
      <FirstScreenMark />
    </Stack>
  )
}

/**
 * Offline: the figures shown are the last ones got, of that moment; when none were kept for the
 * chosen period and page, the latest kept ones are shown and the note names what they cover.
 */
function OfflineNote({ at, other }: { at: string; other: SummaryQuery | null }) {
  const { i18n } = useLingui()
  const when = i18n.date(new Date(at), { dateStyle: 'medium', timeStyle: 'short' })
  if (!other) {
    return (
      <Text c="dimmed" role="status">
        <Trans>Нет связи. Показаны данные на {when}</Trans>
      </Text>
    )
  }
  const day = (d: string) => i18n.date(new Date(`${d}T12:00:00Z`), { dateStyle: 'medium' })
  const from = day(other.from)
  const to = day(other.to)
  return (
    <Text c="dimmed" role="status">
      {other.project_id ? (
        <Trans>
          Нет связи, а за выбранный период данных нет. Показаны данные одной страницы с {from} по{' '}
          {to} на {when}
        </Trans>
      ) : (
        <Trans>
          Нет связи, а за выбранный период данных нет. Показаны данные с {from} по {to} на {when}
        </Trans>
      )}
    </Text>
  )
}
