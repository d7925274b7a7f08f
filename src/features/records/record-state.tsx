import { Trans } from '@lingui/react/macro'
import { IconFileUnknown } from '@tabler/icons-react'
import { useNavigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Button } from '../../ui/button.tsx'
import controls from '../../ui/controls.module.css'
import { EmptyState } from '../../ui/empty-state.tsx'

/** While a record loads from the mirror (Mantine-free: the integrations overview shows it). */
export function RecordLoading() {
  return (
    <div
      style={{
        display: 'flex',
        flexDirection: 'column',
        gap: 'var(--mantine-spacing-md)',
        maxWidth: 720,
      }}
      aria-busy="true"
      data-testid="record-loading"
    >
      <div className={controls.skeleton} style={{ height: 36, width: '40%' }} />
      <div
        className={controls.skeleton}
        style={{ height: 320, borderRadius: 'var(--mantine-radius-lg)' }}
      />
    </div>
  )
}

/** The record is not in this workspace (deleted, or a wrong address). */
export function RecordMissing({ onBack, backLabel }: { onBack: () => void; backLabel: ReactNode }) {
  return (
    <EmptyState
      icon={IconFileUnknown}
      title={<Trans>Запись не найдена</Trans>}
      description={<Trans>Возможно, её удалили или адрес набран с ошибкой.</Trans>}
      action={<Button onClick={onBack}>{backLabel}</Button>}
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
