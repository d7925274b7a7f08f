import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Paper, ScrollBox, Stack, Text } from '../../ui/layout.tsx'
import { useState } from 'react'
import type { OutboxTable } from '../../data/types.ts'
import { discardEntry, retryEntry, type ParkedEntry } from '../../sync/client.ts'
import { Button } from '../../ui/button.tsx'
import { notifyError } from '../../ui/notify.tsx'
import { nestQuotes } from '../../domain/quotes.ts'
import { blockFieldOf } from '../editor/page-kit.ts'
import { ConflictActions, ConflictFields } from '../sync-state/index.ts'

const KIND_NAMES: Record<OutboxTable, MessageDescriptor> = {
  amo: msg`Интеграция amoCRM`,
  bitrix: msg`Интеграция Битрикс24`,
  department: msg`Отделение`,
  location: msg`Локация`,
  specialist: msg`Специалист`,
  workspaces: msg`Пространство`,
  projects: msg`Проект`,
  backgrounds: msg`Фон`,
  blocks: msg`Блок`,
  files: msg`Изображение`,
  appeal: msg`Обращение`,
}

/** Changes of a project's public page (docs/SYNC.md "Publishing") say what they were. */
const PAGE_OP_NAMES: Record<string, MessageDescriptor> = {
  publish: msg`Публикация проекта`,
  unpublish: msg`Снятие с публикации проекта`,
  set_slug: msg`Адрес страницы проекта`,
}

function kindName(entry: Pick<ParkedEntry, 'table' | 'op'>): MessageDescriptor {
  const page = entry.table === 'projects' ? PAGE_OP_NAMES[entry.op] : undefined
  return page ?? KIND_NAMES[entry.table]
}

/** What kind of change a queued entry is, as the lists of changes name it. */
export { kindName as changeKindName }

const FALLBACK_MESSAGES: Record<string, MessageDescriptor> = {
  file_missing: msg`Файл больше не найден на этом устройстве`,
  unexpected: msg`Сервер ответил неожиданно`,
}

/** Rejected changes with the server's message: «Повторить» sends again, «Отменить изменение» drops it. */
export function ParkedList({ entries }: { entries: ParkedEntry[] }) {
  const { t } = useLingui()
  const conflicts = entries.filter((entry) => entry.conflict).length
  const refused = entries.length - conflicts
  return (
    <Stack gap="xs">
      {conflicts > 0 ? (
        <Text size="sm" fw={600} c="orange.9">
          <Trans>Изменено и здесь, и на сервере: {conflicts}. Выберите, что оставить.</Trans>
        </Text>
      ) : null}
      {refused > 0 ? (
        <Text size="sm" fw={600} c="red.7">
          <Trans>Сервер отклонил изменения: {refused}</Trans>
        </Text>
      ) : null}
      <ScrollBox mah={320}>
        <Stack gap="xs" component="ul">
          {entries.map((entry) =>
            entry.conflict ? (
              <ConflictRow key={entry.seq} entry={entry} title={t(kindName(entry))} />
            ) : (
              <ParkedRow key={entry.seq} entry={entry} title={t(kindName(entry))} />
            ),
          )}
        </Stack>
      </ScrollBox>
    </Stack>
  )
}

/** A change someone else's made conflicts with: both values and the person's choice. */
function ConflictRow({ entry, title }: { entry: ParkedEntry; title: string }) {
  const { t } = useLingui()
  const label = entry.label ? nestQuotes(entry.label) : entry.label
  return (
    <Paper component="li" withBorder p="xs" radius="md" data-testid="conflict-entry">
      <Text size="sm" fw={600} truncate>
        {entry.label ? t`${title} «${label}»` : title}
      </Text>
      {entry.conflict ? (
        <ConflictFields conflict={entry.conflict} table={entry.table} blockField={blockFieldOf} />
      ) : null}
      <ConflictActions entry={entry} />
    </Paper>
  )
}

function ParkedRow({ entry, title }: { entry: ParkedEntry; title: string }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState<'retry' | 'discard' | null>(null)
  const fallback = FALLBACK_MESSAGES[entry.code]
  const label = entry.label ? nestQuotes(entry.label) : entry.label
  const message = entry.message || (fallback ? t(fallback) : t`Сервер отклонил изменение`)
  const run = async (kind: 'retry' | 'discard') => {
    setBusy(kind)
    try {
      await (kind === 'retry' ? retryEntry(entry.seq) : discardEntry(entry.seq))
    } catch {
      notifyError(t`Не удалось выполнить действие. Попробуйте ещё раз.`)
    } finally {
      setBusy(null)
    }
  }
  return (
    <Paper component="li" withBorder p="xs" radius="md" data-testid="parked-entry">
      <Text size="sm" fw={600} truncate>
        {entry.label ? t`${title} «${label}»` : title}
      </Text>
      <Text size="sm" c="red.8">
        {message}
      </Text>
      <Group gap="xs" mt="xs">
        <Button
          size="sm"
          variant="light"
          loading={busy === 'retry'}
          onClick={() => void run('retry')}
        >
          <Trans>Повторить</Trans>
        </Button>
        <Button
          size="sm"
          variant="subtle"
          color="red"
          loading={busy === 'discard'}
          onClick={() => void run('discard')}
        >
          <Trans>Отменить изменение</Trans>
        </Button>
      </Group>
    </Paper>
  )
}
