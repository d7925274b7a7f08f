import type { ReactNode } from 'react'
import type { FieldErrors } from '../../ui/use-record-form.ts'

/** What every record form takes; the page decides what saving means (a create or an update). */
export interface RecordFormProps<Values, Output> {
  title: string
  initial: Values
  /** The server's field errors of a rejected change of this record. */
  serverErrors?: FieldErrors
  onSubmit: (output: Output, values: Values) => Promise<unknown>
  onSaved: (result: unknown) => void
  onCancel: () => void
  extraActions?: ReactNode
  notice?: ReactNode
  submitLabel?: ReactNode
  /** `table:id` of an existing record (see ui/draft-carry.ts). */
  draftKey?: string
}
