import { useLingui } from '@lingui/react/macro'
import { Textarea, TextInput } from '@mantine/core'
import * as v from 'valibot'
import { DepartmentFields, type Department } from '../../domain/directory.ts'
import { FormFrame } from '../../ui/form-frame.tsx'
import { useRecordForm } from '../../ui/use-record-form.ts'
import { commandErrorMessage } from '../records/command-error.ts'
import type { RecordFormProps } from '../records/form-props.ts'

export const DepartmentSchema = v.object(DepartmentFields)
export type DepartmentValues = Pick<Department, 'name' | 'description'>
export type DepartmentOutput = v.InferOutput<typeof DepartmentSchema>
export const emptyDepartment: DepartmentValues = { name: '', description: '' }

export function DepartmentForm(props: RecordFormProps<DepartmentValues, DepartmentOutput>) {
  const { t } = useLingui()
  const form = useRecordForm({
    initial: props.initial,
    schema: DepartmentSchema,
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
        placeholder={t`Например, Терапия`}
        value={form.values.name}
        onChange={(event) => form.set('name', event.currentTarget.value)}
        error={form.errors.name}
        aria-invalid={Boolean(form.errors.name)}
        required
        data-autofocus
        autoFocus
      />
      <Textarea
        size="md"
        name="description"
        label={t`Описание`}
        autosize
        minRows={3}
        maxRows={10}
        value={form.values.description}
        onChange={(event) => form.set('description', event.currentTarget.value)}
        error={form.errors.description}
        aria-invalid={Boolean(form.errors.description)}
      />
    </FormFrame>
  )
}
