import type { ReactNode } from 'react'
import type * as v from 'valibot'
import { FormFrame } from '../../ui/form-frame.tsx'
import { useRecordForm, type RecordForm } from '../../ui/use-record-form.ts'
import { commandErrorMessage } from './command-error.ts'
import { OutdatedNotice } from './outdated-notice.tsx'
import type { RecordFormProps } from './form-props.ts'

/**
 * A record form's state from the props its page gives: the values to start from, what saving
 * means, the server's refusals and the draft key; a failed save is told in the user's words.
 */
export function useRecordFormOf<Values extends object, S extends v.GenericSchema>(
  props: RecordFormProps<Values, v.InferOutput<S>>,
  schema: S,
  /** Shapes the values into the schema's input (e.g. drops an untouched secret). */
  toInput?: (values: Values) => unknown,
): RecordForm<Values> {
  return useRecordForm({
    initial: props.initial,
    schema,
    toInput,
    submit: props.onSubmit,
    onSaved: props.onSaved,
    serverErrors: props.serverErrors,
    draftKey: props.draftKey,
    describeError: commandErrorMessage,
  })
}

type FrameProps = Pick<
  RecordFormProps<never, never>,
  'title' | 'onCancel' | 'submitLabel' | 'extraActions' | 'notice'
>

/** The page frame of a record form: the page's title, actions and notice around the fields. */
export function RecordFormFrame({
  props,
  form,
  children,
}: {
  props: FrameProps
  form: Pick<RecordForm<object>, 'onSubmit' | 'isDirty' | 'submitting' | 'outdated' | 'reload'>
  children: ReactNode
}) {
  const notice = form.outdated ? (
    <>
      <OutdatedNotice onReload={form.reload} />
      {props.notice}
    </>
  ) : (
    props.notice
  )
  return (
    <FormFrame
      title={props.title}
      onSubmit={form.onSubmit}
      onCancel={props.onCancel}
      isDirty={form.isDirty}
      submitting={form.submitting}
      submitLabel={props.submitLabel}
      extraActions={props.extraActions}
      notice={notice}
    >
      {children}
    </FormFrame>
  )
}
