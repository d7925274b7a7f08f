import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Stack, Text } from '../../ui/layout.tsx'
import { IconAlertTriangle } from '@tabler/icons-react'
import type { MirrorTable } from '../../data/types.ts'
import { discardEntry, retryEntry, useParkedEntries, type ParkedEntry } from '../../sync/client.ts'
import { Alert } from '../../ui/alert.tsx'
import { Button } from '../../ui/button.tsx'
import { fieldErrorText } from '../../ui/field-error.ts'
import { ConflictActions, ConflictFields, type BlockFieldOf } from '../sync-state/index.ts'

/** The rejected changes of one record. */
export function useParkedOf(table: MirrorTable, id: number): ParkedEntry[] {
  return useParkedEntries().filter((entry) => entry.table === table && entry.recordId === id)
}

/** Field messages of rejected changes (the server's validation), ready to show under fields. */
export function parkedFieldErrors(entries: readonly ParkedEntry[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of entries) {
    for (const [field, message] of Object.entries(entry.fields))
      if (!(field in out)) out[field] = fieldErrorText(message)
  }
  return out
}

/** The server refused a change of this record: its message, and a way to retry or discard it. */
export function ParkedNotice({
  entries: all,
  blockField,
  conflictTitle,
}: {
  entries: readonly ParkedEntry[]
  /** A block's fields shown as its inspector shows them. */
  blockField?: BlockFieldOf | undefined
  /** What the conflict's title calls the record («Блок…»); a record's by default. */
  conflictTitle?: string | undefined
}) {
  const { t } = useLingui()
  const conflicts = all.filter((entry) => entry.conflict)
  const entries = all.filter((entry) => !entry.conflict)
  return (
    <>
      {conflicts.length > 0 ? (
        <Alert
          color="orange"
          icon={IconAlertTriangle}
          title={conflictTitle ?? t`Запись изменили на сервере, пока вы её правили`}
          data-testid="conflict-notice"
        >
          <Stack gap="sm">
            {conflicts.map((entry) =>
              entry.conflict ? (
                <div key={entry.seq}>
                  <ConflictFields
                    conflict={entry.conflict}
                    table={entry.table}
                    blockField={blockField}
                  />
                  <ConflictActions entry={entry} />
                </div>
              ) : null,
            )}
          </Stack>
        </Alert>
      ) : null}
      <RefusedNotice entries={entries} />
    </>
  )
}

function RefusedNotice({ entries }: { entries: readonly ParkedEntry[] }) {
  const { t } = useLingui()
  if (entries.length === 0) return null
  return (
    <Alert
      color="red"
      role="alert"
      icon={IconAlertTriangle}
      title={t`Сервер не принял изменение`}
      data-testid="parked-notice"
    >
      <Stack gap="sm">
        {entries.map((entry) => (
          <Stack key={entry.seq} gap={6}>
            <Text inherit>{entry.message}</Text>
            <Group gap="sm">
              <Button size="sm" variant="light" onClick={() => void retryEntry(entry.seq)}>
                <Trans>Повторить</Trans>
              </Button>
              <Button
                size="sm"
                variant="subtle"
                color="red"
                onClick={() => void discardEntry(entry.seq)}
              >
                <Trans>Отменить изменение</Trans>
              </Button>
            </Group>
          </Stack>
        ))}
        <Text size="xs" c="dimmed">
          <Trans>Исправьте поля ниже и сохраните ещё раз, или отмените изменение.</Trans>
        </Text>
      </Stack>
    </Alert>
  )
}
