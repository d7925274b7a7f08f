import { t } from '@lingui/core/macro'
import { isQuotaError } from '../../data/errors.ts'
import { errorMessage } from '../../ui/field-error.ts'

/** Why a local command failed, for the user: a full device says so; nothing else was lost. */
export function commandErrorMessage(error: unknown): string {
  if (isQuotaError(error))
    return t`На устройстве закончилось место: это изменение не сохранено, прежние сохранены. Освободите место и повторите.`
  return errorMessage(error)
}
