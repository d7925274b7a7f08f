import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { MIRROR_TABLE_OF, type ParkedConflict } from '../../data/types.ts'
import type { ChangeNotice } from '../../domain/workspace.ts'
import { nestQuotes } from '../../domain/quotes.ts'
import { Button } from '../../ui/button.tsx'
import { Group, Paper, ScrollBox, Stack, Text } from '../../ui/layout.tsx'
import { notifyError } from '../../ui/notify.tsx'
import { blockFieldOf } from '../editor/page-kit.ts'
import { ConflictFields } from '../sync-state/index.ts'
import { dismiss } from './notices.ts'
import { changeKindName } from './parked-list.tsx'

/** The notice's values as a conflict's two sides, for the lines a conflict is shown in. */
function asConflict(notice: ChangeNotice): ParkedConflict {
  return {
    fields: notice.changes.map(({ field, was, now }) => ({ field, mine: was, theirs: now })),
    current: notice.block ? { type: notice.block.type } : {},
    background: notice.block
      ? { width: notice.block.bg_width, height: notice.block.bg_height }
      : undefined,
  }
}

/**
 * Colleagues who kept their own values over the person's («Оставить моё», docs/API.md
 * "Conditional writes"): who, which record, the value the person had written and the one it holds
 * now, when; «Понятно» lets the notice go.
 */
export function NoticeList({ notices }: { notices: readonly ChangeNotice[] }) {
  const count = notices.length
  return (
    <Stack gap="xs" data-testid="notices">
      <Text size="sm" fw={600} c="orange.9">
        <Trans>Коллеги заменили ваши значения: {count}</Trans>
      </Text>
      <ScrollBox mah={320}>
        <Stack gap="xs" component="ul">
          {notices.map((notice) => (
            <NoticeRow key={notice.id} notice={notice} />
          ))}
        </Stack>
      </ScrollBox>
    </Stack>
  )
}

function NoticeRow({ notice }: { notice: ChangeNotice }) {
  const { t, i18n } = useLingui()
  const [busy, setBusy] = useState(false)
  const table = MIRROR_TABLE_OF[notice.kind]
  const kind = t(changeKindName({ table, op: 'update' }))
  const label = nestQuotes(notice.label)
  const title = notice.block
    ? t`${kind} в проекте «${label}»`
    : notice.label
      ? t`${kind} «${label}»`
      : kind
  const who = notice.by || t`Участник, которого уже нет`
  const when = new Intl.DateTimeFormat(i18n.locale, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(notice.created_at))
  const workspace = nestQuotes(notice.workspace_name)
  const onDismiss = async () => {
    setBusy(true)
    try {
      await dismiss(notice.id)
    } catch {
      notifyError(t`Не удалось отметить уведомление прочитанным. Попробуйте ещё раз.`)
      setBusy(false)
    }
  }
  return (
    <Paper component="li" withBorder p="xs" radius="md" data-testid="notice">
      <Text size="sm" fw={600} truncate>
        {title}
      </Text>
      <Text size="xs" c="dimmed" data-testid="notice-who">
        <Trans>
          {who} оставил(а) своё значение вместо вашего · {when} · пространство «{workspace}»
        </Trans>
      </Text>
      <ConflictFields
        conflict={asConflict(notice)}
        table={table}
        blockField={blockFieldOf}
        sides={{ mine: <Trans>Было ваше:</Trans>, theirs: <Trans>Стало:</Trans> }}
      />
      <Group gap="xs" mt="xs">
        <Button size="sm" variant="light" loading={busy} onClick={() => void onDismiss()}>
          <Trans>Понятно</Trans>
        </Button>
      </Group>
    </Paper>
  )
}
