import type { AmoIntegration } from '../../domain/integration.ts'
import {
  emptyIntegration,
  IntegrationForm,
  integrationValues,
  type IntegrationFormProps,
  type IntegrationValues,
} from './integration-form.tsx'

export type AmoValues = IntegrationValues<'amo'>
export const emptyAmo: AmoValues = emptyIntegration('amo')
export const amoValues = (record: AmoIntegration): AmoValues => integrationValues('amo', record)

/** The amoCRM integration form (fields in kinds.ts). */
export function AmoForm(props: IntegrationFormProps<'amo'>) {
  return <IntegrationForm kind="amo" {...props} />
}
