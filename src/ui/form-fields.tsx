import type { ChangeEvent } from 'react'
import { TextInput, type TextInputProps } from './text-input.tsx'
import { Textarea, type TextareaProps } from './textarea.tsx'
import type { RecordForm } from './use-record-form.ts'

/** The fields of `Values` that hold text. */
export type TextField<Values> = {
  [K in keyof Values]: Values[K] extends string ? K : never
}[keyof Values] &
  string

// `form` is the record form here, not the HTML attribute naming a <form> by id.
type Bound = 'form' | 'name' | 'value' | 'onChange' | 'error'
interface BindProps<Values extends object> {
  form: RecordForm<Values>
  field: TextField<Values>
}

/** An input's side of a record form's text field: its value, its edits and its message. */
function bind<Values extends object>({ form, field }: BindProps<Values>) {
  const error = form.errors[field]
  return {
    name: field,
    value: form.values[field] as string,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      form.set(field, event.currentTarget.value as Values[typeof field]),
    error,
  }
}

/** A text input bound to a record form's field. */
export function FormTextInput<Values extends object>({
  form,
  field,
  ...rest
}: BindProps<Values> & Omit<TextInputProps, Bound>) {
  return <TextInput {...bind({ form, field })} {...rest} />
}

/** A multi-line text bound to a record form's field; it grows with its text (3 to 10 rows). */
export function FormTextarea<Values extends object>({
  form,
  field,
  ...rest
}: BindProps<Values> & Omit<TextareaProps, Bound>) {
  return <Textarea minRows={3} maxRows={10} {...bind({ form, field })} {...rest} />
}
