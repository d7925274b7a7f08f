import { t } from '@lingui/core/macro'
import type { ReactNode } from 'react'
import { confirmDialog } from './confirm.tsx'

/** «Удалить …?» with a red confirm button; resolves true when the user confirms. */
export function confirmDelete(request: { title: ReactNode; message: ReactNode }): Promise<boolean> {
  return confirmDialog({ ...request, confirmLabel: t`Удалить`, danger: true })
}
