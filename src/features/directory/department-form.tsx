import './directory-messages.ts'
import { useLingui } from '@lingui/react/macro'
import * as v from 'valibot'
import { DepartmentFields, type Department } from '../../domain/directory.ts'
import { FormTextarea, FormTextInput } from '../../ui/form-fields.tsx'
import { RecordFormFrame, type RecordFormProps, useRecordFormOf } from '../records/index.ts'

export const DepartmentSchema = v.object(DepartmentFields)
export type DepartmentValues = Pick<Department, 'name' | 'description'>
export type DepartmentOutput = v.InferOutput<typeof DepartmentSchema>
export const emptyDepartment: DepartmentValues = { name: '', description: '' }

export function DepartmentForm(props: RecordFormProps<DepartmentValues, DepartmentOutput>) {
  const { t } = useLingui()
  const form = useRecordFormOf(props, DepartmentSchema)
  return (
    <RecordFormFrame props={props} form={form}>
      <FormTextInput
        form={form}
        field="name"
        label={t`Название`}
        placeholder={t`Например, Терапия`}
        required
        data-autofocus
        autoFocus
      />
      <FormTextarea form={form} field="description" label={t`Описание`} />
    </RecordFormFrame>
  )
}
