import './directory-messages.ts'
import { useLingui } from '@lingui/react/macro'
import * as v from 'valibot'
import { LocationFields, type Location } from '../../domain/directory.ts'
import { FormTextInput } from '../../ui/form-fields.tsx'
import { RecordFormFrame, type RecordFormProps, useRecordFormOf } from '../records/index.ts'

export const LocationSchema = v.object(LocationFields)
export type LocationValues = Pick<Location, 'name' | 'address' | 'phone'>
export type LocationOutput = v.InferOutput<typeof LocationSchema>
export const emptyLocation: LocationValues = { name: '', address: '', phone: '' }

export function LocationForm(props: RecordFormProps<LocationValues, LocationOutput>) {
  const { t } = useLingui()
  const form = useRecordFormOf(props, LocationSchema)
  return (
    <RecordFormFrame props={props} form={form}>
      <FormTextInput
        form={form}
        field="name"
        label={t`Название`}
        placeholder={t`Например, Клиника на Ленина`}
        required
        autoFocus
      />
      <FormTextInput form={form} field="address" label={t`Адрес`} autoComplete="street-address" />
      <FormTextInput
        form={form}
        field="phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        label={t`Телефон`}
        placeholder="+7 900 000-00-00"
      />
    </RecordFormFrame>
  )
}
