import { Textarea, TextInput, type TextareaProps, type TextInputProps } from '@mantine/core'
import type { RecordForm } from './use-record-form.ts'

/** The fields of `Values` that hold text. */
export type TextField<Values> = {
  [K in keyof Values]: Values[K] extends string ? K : never
}[keyof Values] &
  string

// `form` is the record form here, not the HTML attribute naming a <form> by id.
type Bound = 'form' | 'name' | 'value' | 'onChange' | 'error'

/** A text input bound to a record form's field: its value, its edits and its message. */
export function FormTextInput<Values extends object>({
  form,
  field,
  ...rest
}: { form: RecordForm<Values>; field: TextField<Values> } & Omit<TextInputProps, Bound>) {
  const error = form.errors[field]
  return (
    <TextInput
      size="md"
      name={field}
      value={form.values[field] as string}
      onChange={(event) => form.set(field, event.currentTarget.value as Values[typeof field])}
      error={error}
      aria-invalid={Boolean(error)}
      {...rest}
    />
  )
}

/** A multi-line text bound to a record form's field; it grows with its text (3 to 10 rows). */
export function FormTextarea<Values extends object>({
  form,
  field,
  ...rest
}: { form: RecordForm<Values>; field: TextField<Values> } & Omit<TextareaProps, Bound>) {
  const error = form.errors[field]
  return (
    <Textarea
      size="md"
      name={field}
      autosize
      minRows={3}
      maxRows={10}
      value={form.values[field] as string}
      onChange={(event) => form.set(field, event.currentTarget.value as Values[typeof field])}
      error={error}
      aria-invalid={Boolean(error)}
      {...rest}
    />
  )
}
