import { useLingui } from '@lingui/react/macro'
import { TextInput } from '@mantine/core'
import * as v from 'valibot'
import { LocationFields, type Location } from '../../domain/directory.ts'
import { FormFrame } from '../../ui/form-frame.tsx'
import { useRecordForm } from '../../ui/use-record-form.ts'
import { commandErrorMessage } from '../records/command-error.ts'
import type { RecordFormProps } from '../records/form-props.ts'

export const LocationSchema = v.object(LocationFields)
export type LocationValues = Pick<Location, 'name' | 'address' | 'phone'>
export type LocationOutput = v.InferOutput<typeof LocationSchema>
export const emptyLocation: LocationValues = { name: '', address: '', phone: '' }

export function LocationForm(props: RecordFormProps<LocationValues, LocationOutput>) {
  const { t } = useLingui()
  const form = useRecordForm({
    initial: props.initial,
    schema: LocationSchema,
    submit: props.onSubmit,
    onSaved: props.onSaved,
    serverErrors: props.serverErrors,
    draftKey: props.draftKey,
    describeError: commandErrorMessage,
  })
  return (
    <FormFrame
      title={props.title}
      onSubmit={form.onSubmit}
      onCancel={props.onCancel}
      isDirty={form.isDirty}
      submitting={form.submitting}
      submitLabel={props.submitLabel}
      extraActions={props.extraActions}
      notice={props.notice}
    >
      <TextInput
        size="md"
        name="name"
        label={t`Название`}
        placeholder={t`Например, Клиника на Ленина`}
        value={form.values.name}
        onChange={(event) => form.set('name', event.currentTarget.value)}
        error={form.errors.name}
        aria-invalid={Boolean(form.errors.name)}
        required
        autoFocus
      />
      <TextInput
        size="md"
        name="address"
        label={t`Адрес`}
        autoComplete="street-address"
        value={form.values.address}
        onChange={(event) => form.set('address', event.currentTarget.value)}
        error={form.errors.address}
        aria-invalid={Boolean(form.errors.address)}
      />
      <TextInput
        size="md"
        name="phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        label={t`Телефон`}
        placeholder="+7 900 000-00-00"
        value={form.values.phone}
        onChange={(event) => form.set('phone', event.currentTarget.value)}
        error={form.errors.phone}
        aria-invalid={Boolean(form.errors.phone)}
      />
    </FormFrame>
  )
}
