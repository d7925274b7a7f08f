import './integration-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import {
  IconAlertCircle,
  IconCircleCheck,
  IconPlugConnected,
  IconStethoscope,
} from '@tabler/icons-react'
import { useEffect, useState } from 'react'
import { checkIntegration, connectAmo, integrationStates } from '../../api/appeals.ts'
import { ApiError, NetworkError } from '../../api/client.ts'
import type { IntegrationState } from '../../domain/appeal.ts'
import type { IntegrationKind } from '../../domain/integration.ts'
import { isLocalId } from '../../data/ids.ts'
import { useOnline } from '../../sync/client.ts'
import { Alert } from '../../ui/alert.tsx'
import { Badge } from '../../ui/badge.tsx'
import { Button } from '../../ui/button.tsx'
import { Group, Paper, Stack, Text } from '../../ui/layout.tsx'
import { KIND_NAME } from './kind-names.ts'

/**
 * What an integration's page says of its deliveries (docs/requests.md, "The app"): its state
 * («Подключено», «Требуется подключение», «Ошибка: …»), its last delivered request and its counts,
 * asked of the server when the page opens (they change on the server only, so they are not
 * mirrored); «Проверить» asks the CRM through the server and says in Russian what is wrong; an
 * amoCRM integration that needs it offers «Подключить amoCRM».
 */
export function IntegrationStatePanel({
  kind,
  id,
  workspaceId,
}: {
  kind: IntegrationKind
  id: number
  workspaceId: number
}) {
  const { t } = useLingui()
  const online = useOnline()
  const [state, setState] = useState<
    | { kind: 'loading' }
    | { kind: 'shown'; value: IntegrationState | null }
    | { kind: 'failed'; offline: boolean }
  >({ kind: 'loading' })
  const [check, setCheck] = useState<
    { kind: 'idle' } | { kind: 'running' } | { kind: 'done'; ok: boolean; message: string }
  >({ kind: 'idle' })
  const [connecting, setConnecting] = useState(false)
  /** Raised to ask the server again (after «Проверить»). */
  const [asked, setAsked] = useState(0)
  const local = isLocalId(id)

  // Asked again when the page opens, after a check, and when the network comes back.
  useEffect(() => {
    if (local) return
    let live = true
    integrationStates(workspaceId).then(
      (all) => {
        if (!live) return
        const value = all.find((s) => s.kind === kind && s.id === id) ?? null
        setState({ kind: 'shown', value })
      },
      (error: unknown) => {
        if (live) setState({ kind: 'failed', offline: error instanceof NetworkError })
      },
    )
    return () => {
      live = false
    }
  }, [kind, id, workspaceId, local, online, asked])

  const runCheck = async () => {
    setCheck({ kind: 'running' })
    try {
      const answer = await checkIntegration(kind, id)
      setCheck({ kind: 'done', ...answer })
    } catch (error) {
      setCheck({
        kind: 'done',
        ok: false,
        message:
          error instanceof NetworkError
            ? t`Нет связи с сервером: проверить интеграцию можно только онлайн.`
            : error instanceof ApiError && error.message
              ? error.message
              : t`Не удалось проверить интеграцию. Попробуйте ещё раз.`,
      })
    }
    setAsked((n) => n + 1)
  }

  const connect = async () => {
    setConnecting(true)
    try {
      const { url } = await connectAmo(id)
      window.location.assign(url)
    } catch (error) {
      setConnecting(false)
      setCheck({
        kind: 'done',
        ok: false,
        message:
          error instanceof ApiError && error.message
            ? error.message
            : t`Не удалось открыть подключение amoCRM. Проверьте связь и попробуйте ещё раз.`,
      })
    }
  }

  if (local)
    return (
      <Alert color="blue" icon={IconPlugConnected}>
        <Trans>
          Интеграция ещё не сохранена на сервере: её состояние и проверка появятся, когда она
          отправится.
        </Trans>
      </Alert>
    )

  const value = state.kind === 'shown' ? state.value : null
  const system = KIND_NAME[kind]

  return (
    <Paper withBorder radius="lg" p="md" data-testid="integration-state">
      <Stack gap="sm">
        <Group justify="space-between" align="center" gap="sm">
          <Text fw={600}>
            <Trans>Состояние</Trans>
          </Text>
          {value ? <StateBadge state={value} /> : null}
        </Group>
        {state.kind === 'loading' ? (
          <Text c="dimmed" size="sm">
            <Trans>Узнаём состояние…</Trans>
          </Text>
        ) : null}
        {state.kind === 'failed' ? (
          <Text c={state.offline ? 'dimmed' : 'red.8'} size="sm" role="status">
            {state.offline ? (
              <Trans>Нет связи: состояние интеграции покажется, когда появится интернет.</Trans>
            ) : (
              <Trans>Не удалось узнать состояние интеграции. Попробуйте обновить страницу.</Trans>
            )}
          </Text>
        ) : null}
        {state.kind === 'shown' && !value ? (
          <Text c="dimmed" size="sm">
            <Trans>Сервер ещё не знает эту интеграцию: состояние появится после сохранения.</Trans>
          </Text>
        ) : null}
        {value ? (
          <>
            {value.message && value.state !== 'error' ? (
              <Text size="sm">{value.message}</Text>
            ) : null}
            <LastDelivery at={value.last_delivered_at} system={system} />
            <Counts {...value} />
          </>
        ) : null}
        {check.kind === 'done' ? (
          <Alert
            color={check.ok ? 'teal' : 'red'}
            icon={check.ok ? IconCircleCheck : IconAlertCircle}
            role="alert"
            data-testid="integration-check"
          >
            {check.message}
          </Alert>
        ) : null}
        <Group gap="sm" wrap="wrap">
          <Button
            variant="default"
            leftSection={<IconStethoscope size={18} aria-hidden />}
            onClick={() => void runCheck()}
            loading={check.kind === 'running'}
            disabled={!online || check.kind === 'running'}
          >
            <Trans>Проверить</Trans>
          </Button>
          {kind === 'amo' && (value?.state === 'not_connected' || value?.state === 'reconnect') ? (
            <Button
              leftSection={<IconPlugConnected size={18} aria-hidden />}
              onClick={() => void connect()}
              loading={connecting}
              disabled={!online || connecting}
            >
              <Trans>Подключить amoCRM</Trans>
            </Button>
          ) : null}
        </Group>
        {!online ? (
          <Text c="dimmed" size="sm">
            <Trans>
              Проверить и подключить интеграцию можно только при подключении к интернету.
            </Trans>
          </Text>
        ) : null}
      </Stack>
    </Paper>
  )
}

function LastDelivery({ at, system }: { at: string | null; system: string }) {
  const { i18n } = useLingui()
  const when = at ? i18n.date(new Date(at), { dateStyle: 'medium', timeStyle: 'short' }) : ''
  return (
    <Text size="sm" data-testid="integration-last-delivery">
      {at ? (
        <Trans>Последняя заявка доставлена {when}</Trans>
      ) : (
        <Trans>Заявок в {system} ещё не доставлялось</Trans>
      )}
    </Text>
  )
}

function Counts({ delivered, queued, failed }: IntegrationState) {
  return (
    <Text size="sm" c="dimmed" data-testid="integration-counts">
      <Trans>
        Доставлено: {delivered} · В очереди: {queued} · Не доставлено: {failed}
      </Trans>
    </Text>
  )
}

function StateBadge({ state }: { state: IntegrationState }) {
  const { message } = state
  switch (state.state) {
    case 'connected':
      return (
        <Badge color="teal" data-testid="integration-state-badge">
          <Trans>Подключено</Trans>
        </Badge>
      )
    case 'not_connected':
      return (
        <Badge color="orange" data-testid="integration-state-badge">
          <Trans>Требуется подключение</Trans>
        </Badge>
      )
    case 'reconnect':
      return (
        <Badge color="orange" data-testid="integration-state-badge">
          <Trans>Требуется повторное подключение</Trans>
        </Badge>
      )
    case 'error':
      return (
        <Badge color="red" data-testid="integration-state-badge">
          <Trans>Ошибка: {message}</Trans>
        </Badge>
      )
    case 'disabled':
      return (
        <Badge color="gray" data-testid="integration-state-badge">
          <Trans>Выключена</Trans>
        </Badge>
      )
  }
}
