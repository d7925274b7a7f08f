import { lazy, useSyncExternalStore, type ReactNode } from 'react'
import { MantineScope } from './mantine-scope.tsx'

/**
 * An imperative confirm dialog: `await confirmDialog({...})` resolves true on confirm, false on
 * cancel or close. Mount <ConfirmHost/> once (src/app/providers.tsx).
 */
export interface ConfirmRequest {
  title: ReactNode
  message: ReactNode
  confirmLabel: ReactNode
  cancelLabel?: ReactNode
  danger?: boolean
}

interface Pending extends ConfirmRequest {
  resolve: (ok: boolean) => void
}

let current: Pending | null = null
let mounted = 0
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((listener) => listener())

export function confirmDialog(request: ConfirmRequest): Promise<boolean> {
  // Without a host nobody could answer; refuse rather than hang.
  if (mounted === 0) return Promise.resolve(false)
  current?.resolve(false)
  return new Promise((resolve) => {
    current = { ...request, resolve }
    emit()
  })
}

function answer(ok: boolean): void {
  const pending = current
  current = null
  emit()
  pending?.resolve(ok)
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  mounted += 1
  return () => {
    listeners.delete(listener)
    mounted -= 1
  }
}

// The modal code (and Mantine, in its own scope) loads only when a question is asked.
const ConfirmModal = lazy(() =>
  import('./confirm-modal.tsx').then((m) => ({ default: m.ConfirmModal })),
)

export function ConfirmHost() {
  const request = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  )
  if (!request) return null
  return (
    <MantineScope>
      <ConfirmModal request={request} answer={answer} />
    </MantineScope>
  )
}
