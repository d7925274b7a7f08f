import type { BitrixIntegration } from '../../domain/integration.ts'
import {
  emptyIntegration,
  IntegrationForm,
  integrationValues,
  type IntegrationFormProps,
  type IntegrationValues,
} from './integration-form.tsx'

export type BitrixValues = IntegrationValues<'bitrix'>
export const emptyBitrix: BitrixValues = emptyIntegration('bitrix')
export const bitrixValues = (record: BitrixIntegration): BitrixValues =>
  integrationValues('bitrix', record)

/** The Bitrix24 integration form (fields in kinds.ts). */
export function BitrixForm(props: IntegrationFormProps<'bitrix'>) {
  return <IntegrationForm kind="bitrix" {...props} />
}
