import { Trans } from '@lingui/react/macro'
import { Button, Skeleton, Stack } from '@mantine/core'
import { IconFileUnknown } from '@tabler/icons-react'
import { useNavigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { EmptyState } from '../../ui/empty-state.tsx'

/** While a record loads from the mirror. */
export function RecordLoading() {
  return (
    <Stack gap="md" maw={720} aria-busy="true" data-testid="record-loading">
      <Skeleton height={36} width="40%" />
      <Skeleton height={320} radius="lg" />
    </Stack>
  )
}

/** The record is not in this workspace (deleted, or a wrong address). */
export function RecordMissing({ onBack, backLabel }: { onBack: () => void; backLabel: ReactNode }) {
  return (
    <EmptyState
      icon={IconFileUnknown}
      title={<Trans>Запись не найдена</Trans>}
      description={<Trans>Возможно, её удалили или адрес набран с ошибкой.</Trans>}
      action={
        <Button size="md" onClick={onBack}>
          {backLabel}
        </Button>
      }
    />
  )
}

/** A route segment that is no record id at all ("/specialist/abc"). */
export function RecordNotFound({ to }: { to: string }) {
  const navigate = useNavigate()
  return (
    <RecordMissing
      onBack={() => void navigate({ to })}
      backLabel={<Trans>Вернуться к списку</Trans>}
    />
  )
}
