import { useLingui } from '@lingui/react/macro'
import { Switch, TextInput } from '@mantine/core'
import * as v from 'valibot'
import { AmoFields, isMasked, maskSecret, type AmoIntegration } from '../../domain/integration.ts'
import { FormFrame } from '../../ui/form-frame.tsx'
import { SecretField } from '../../ui/secret-field.tsx'
import { useRecordForm } from '../../ui/use-record-form.ts'
import { commandErrorMessage } from '../records/command-error.ts'
import type { RecordFormProps } from '../records/form-props.ts'

export const AmoCreateSchema = v.object({ ...AmoFields, enabled: v.boolean() })
/** On an existing integration the secret may be left out: the stored one is kept (DESIGN §4). */
export const AmoEditSchema = v.object({
  ...AmoFields,
  client_secret: v.optional(AmoFields.client_secret),
  enabled: v.boolean(),
})
export type AmoOutput = v.InferOutput<typeof AmoEditSchema>

export interface AmoValues {
  name: string
  subdomain: string
  client_id: string
  /** null keeps the stored secret. */
  client_secret: string | null
  redirect_uri: string
  enabled: boolean
}

export const emptyAmo: AmoValues = {
  name: '',
  subdomain: '',
  client_id: '',
  client_secret: '',
  redirect_uri: '',
  enabled: true,
}

export function amoValues(record: AmoIntegration): AmoValues {
  return {
    name: record.name,
    subdomain: record.subdomain,
    client_id: record.client_id,
    client_secret: null,
    redirect_uri: record.redirect_uri,
    enabled: record.enabled,
  }
}

function shownSecret(secret: string): string {
  return isMasked(secret) ? secret : maskSecret(secret)
}

export interface AmoFormProps extends RecordFormProps<AmoValues, AmoOutput> {
  /** The stored integration; absent on a new one. */
  record?: AmoIntegration
}

export function AmoForm(props: AmoFormProps) {
  const { t } = useLingui()
  const editing = props.record !== undefined
  const form = useRecordForm({
    initial: props.initial,
    // A new integration needs its secret; the create schema is the stricter one.
    schema: (editing ? AmoEditSchema : AmoCreateSchema) as typeof AmoEditSchema,
    toInput: ({ client_secret, ...rest }) =>
      client_secret === null ? rest : { ...rest, client_secret },
    submit: props.onSubmit,
    onSaved: props.onSaved,
    serverErrors: props.serverErrors,
    draftKey: props.draftKey,
    describeError: commandErrorMessage,
  })
  const text = (
    field: 'name' | 'subdomain' | 'client_id' | 'redirect_uri',
    label: string,
    extra: Record<string, unknown> = {},
  ) => (
    <TextInput
      size="md"
      name={field}
      label={label}
      autoComplete="off"
      value={form.values[field]}
      onChange={(event) => form.set(field, event.currentTarget.value)}
      error={form.errors[field]}
      aria-invalid={Boolean(form.errors[field])}
      required
      {...extra}
    />
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
      notice={props.notice}
    >
      {text('name', t`Название`, {
        autoFocus: !editing,
        placeholder: t`Например, Основная воронка`,
      })}
      {text('subdomain', t`Поддомен amoCRM`, {
        description: t`Часть адреса аккаунта перед .amocrm.ru`,
        placeholder: 'clinic',
        rightSection: '.amocrm.ru',
        rightSectionWidth: 112,
        autoCapitalize: 'none',
        spellCheck: false,
      })}
      {text('client_id', t`ID интеграции (client id)`, { spellCheck: false })}
      <SecretField
        name="client_secret"
        label={t`Секретный ключ (client secret)`}
        masked={props.record ? shownSecret(props.record.client_secret) : null}
        value={form.values.client_secret}
        onChange={(value) => form.set('client_secret', value)}
        error={form.errors.client_secret}
      />
      {text('redirect_uri', t`Ссылка для перенаправления (redirect URI)`, {
        type: 'url',
        inputMode: 'url',
        placeholder: 'https://example.ru/amocrm/callback',
        spellCheck: false,
      })}
      <Switch
        size="lg"
        name="enabled"
        label={t`Интеграция включена`}
        description={t`Выключенная интеграция не получает заявки.`}
        checked={form.values.enabled}
        onChange={(event) => form.set('enabled', event.currentTarget.checked)}
      />
    </FormFrame>
  )
}
