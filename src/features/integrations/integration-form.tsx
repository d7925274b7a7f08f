import './integration-messages.ts'
import { useLingui } from '@lingui/react/macro'
import * as v from 'valibot'
import type { RecordOf } from '../../data/types.ts'
import { isMasked, type IntegrationKind } from '../../domain/integration.ts'
import { FormTextInput } from '../../ui/form-fields.tsx'
import { SecretField as SecretInput } from '../../ui/secret-field.tsx'
import type { RecordForm } from '../../ui/use-record-form.ts'
import { RecordFormFrame, type RecordFormProps, useRecordFormOf } from '../records/index.ts'
import { KIND_FORM, SECRET_FIELD, type IntegrationFormSpec, type SecretField } from './kinds.ts'
import { SwitchField } from '../../ui/switch-field.tsx'

/** What the form holds: the record's fields, with `null` in the secret to keep the stored one. */
export type IntegrationValues<K extends IntegrationKind> = Omit<
  RecordOf<K>,
  'id' | 'workspace_id' | SecretField<K>
> & { [F in SecretField<K>]: string | null }

/** What a valid form gives: the secret only when the user typed a new one. */
export type IntegrationOutput<K extends IntegrationKind> = Omit<
  RecordOf<K>,
  'id' | 'workspace_id' | SecretField<K>
> & { [F in SecretField<K>]?: string }

export interface IntegrationFormProps<K extends IntegrationKind> extends RecordFormProps<
  IntegrationValues<K>,
  IntegrationOutput<K>
> {
  /** The stored integration; absent on a new one. */
  record?: RecordOf<K>
}

/**
 * Inside the form the kind's fields are known by name only (kinds.ts): one loose view of the
 * values serves them all; the props above keep each kind's exact types.
 */
type Loose = Record<string, string | null | boolean>
type LooseSchema = v.GenericSchema<unknown, Loose>

/** A new integration needs its secret; on an existing one it may be left out and kept. */
function schemas(kind: IntegrationKind): { create: LooseSchema; edit: LooseSchema } {
  const entries = KIND_FORM[kind].entries
  const secret = SECRET_FIELD[kind]
  return {
    create: v.object({ ...entries, enabled: v.boolean() }) as unknown as LooseSchema,
    edit: v.object({
      ...entries,
      [secret]: v.optional(entries[secret]!),
      enabled: v.boolean(),
    }) as unknown as LooseSchema,
  }
}
const SCHEMAS = { amo: schemas('amo'), bitrix: schemas('bitrix') }

/** The values of a new integration of `kind`. */
export function emptyIntegration<K extends IntegrationKind>(kind: K): IntegrationValues<K> {
  const values: Record<string, unknown> = { name: '' }
  for (const field of KIND_FORM[kind].fields)
    values[field.type === 'secret' ? SECRET_FIELD[kind] : field.name] = ''
  values.enabled = true
  return values as IntegrationValues<K>
}

/** The values of a stored integration; its secret is kept until the user replaces it. */
export function integrationValues<K extends IntegrationKind>(
  kind: K,
  record: RecordOf<K>,
): IntegrationValues<K> {
  const stored = record as unknown as Record<string, unknown>
  const values: Record<string, unknown> = { name: record.name }
  for (const field of KIND_FORM[kind].fields)
    if (field.type === 'secret') values[SECRET_FIELD[kind]] = null
    else values[field.name] = stored[field.name]
  values.enabled = record.enabled
  return values as IntegrationValues<K>
}

/** The form of an amoCRM or Bitrix24 integration: the kind's fields (kinds.ts) and «включена». */
export function IntegrationForm<K extends IntegrationKind>({
  kind,
  ...typed
}: IntegrationFormProps<K> & { kind: K }) {
  const { t } = useLingui()
  const props = typed as unknown as RecordFormProps<Loose, Loose> & { record?: Loose }
  const spec = KIND_FORM[kind] as IntegrationFormSpec<IntegrationKind>
  const secret = SECRET_FIELD[kind]
  const stored = props.record
  const editing = stored !== undefined
  const form = useRecordFormOf(
    props,
    editing ? SCHEMAS[kind].edit : SCHEMAS[kind].create,
    ({ [secret]: kept, ...rest }) => (kept === null ? rest : { ...rest, [secret]: kept }),
  )
  const text = form as unknown as RecordForm<Record<string, string>>
  return (
    <RecordFormFrame props={props} form={form}>
      <FormTextInput
        form={text}
        field="name"
        label={t`Название`}
        placeholder={t(spec.namePlaceholder)}
        autoComplete="off"
        required
        autoFocus={!editing}
      />
      {spec.fields.map((field) =>
        field.type === 'secret' ? (
          <SecretInput
            key={secret}
            name={secret}
            label={t(field.label)}
            description={field.description ? t(field.description) : undefined}
            visible={field.visible}
            masked={stored ? shown(String(stored[secret]), field.mask) : null}
            value={form.values[secret] as string | null}
            onChange={(value) => form.set(secret, value)}
            error={form.errors[secret]}
          />
        ) : (
          <FormTextInput
            key={field.name}
            form={text}
            field={field.name}
            label={t(field.label)}
            description={field.description ? t(field.description) : undefined}
            autoComplete="off"
            required
            {...field.input}
          />
        ),
      )}
      <SwitchField
        name="enabled"
        label={t`Интеграция включена`}
        description={t`Выключенная интеграция не получает заявки.`}
        checked={form.values.enabled as boolean}
        onChange={(event) => form.set('enabled', event.currentTarget.checked)}
      />
    </RecordFormFrame>
  )
}

/** A stored secret comes masked from the server; one saved on this device is masked here. */
function shown(stored: string, mask: (value: string) => string): string {
  return isMasked(stored) ? stored : mask(stored)
}
