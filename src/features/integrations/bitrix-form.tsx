import { useLingui } from '@lingui/react/macro'
import { Switch, TextInput } from '@mantine/core'
import * as v from 'valibot'
import {
  BitrixFields,
  isMasked,
  maskWebhookUrl,
  type BitrixIntegration,
} from '../../domain/integration.ts'
import { FormFrame } from '../../ui/form-frame.tsx'
import { SecretField } from '../../ui/secret-field.tsx'
import { useRecordForm } from '../../ui/use-record-form.ts'
import { commandErrorMessage } from '../records/command-error.ts'
import type { RecordFormProps } from '../records/form-props.ts'

/** A sample address, the same in every language. */
const EXAMPLE_PORTAL = 'https://clinic.bitrix24.ru'

export const BitrixCreateSchema = v.object({ ...BitrixFields, enabled: v.boolean() })
/** The webhook URL holds a token: on an existing integration it may be left out and kept. */
export const BitrixEditSchema = v.object({
  ...BitrixFields,
  webhook_url: v.optional(BitrixFields.webhook_url),
  enabled: v.boolean(),
})
export type BitrixOutput = v.InferOutput<typeof BitrixEditSchema>

export interface BitrixValues {
  name: string
  portal_url: string
  /** null keeps the stored webhook URL. */
  webhook_url: string | null
  enabled: boolean
}

export const emptyBitrix: BitrixValues = {
  name: '',
  portal_url: '',
  webhook_url: '',
  enabled: true,
}

export function bitrixValues(record: BitrixIntegration): BitrixValues {
  return {
    name: record.name,
    portal_url: record.portal_url,
    webhook_url: null,
    enabled: record.enabled,
  }
}

function shownWebhook(url: string): string {
  return isMasked(url) ? url : maskWebhookUrl(url)
}

export interface BitrixFormProps extends RecordFormProps<BitrixValues, BitrixOutput> {
  record?: BitrixIntegration
}

export function BitrixForm(props: BitrixFormProps) {
  const { t } = useLingui()
  const editing = props.record !== undefined
  const form = useRecordForm({
    initial: props.initial,
    // A new integration needs its webhook; the create schema is the stricter one.
    schema: (editing ? BitrixEditSchema : BitrixCreateSchema) as typeof BitrixEditSchema,
    toInput: ({ webhook_url, ...rest }) => (webhook_url === null ? rest : { ...rest, webhook_url }),
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
        placeholder={t`Например, Портал клиники`}
        autoComplete="off"
        value={form.values.name}
        onChange={(event) => form.set('name', event.currentTarget.value)}
        error={form.errors.name}
        aria-invalid={Boolean(form.errors.name)}
        required
        autoFocus={!editing}
      />
      <TextInput
        size="md"
        name="portal_url"
        type="url"
        inputMode="url"
        label={t`Адрес портала`}
        description={t`Например, https://clinic.bitrix24.ru`}
        placeholder={EXAMPLE_PORTAL}
        autoComplete="off"
        spellCheck={false}
        value={form.values.portal_url}
        onChange={(event) => form.set('portal_url', event.currentTarget.value)}
        error={form.errors.portal_url}
        aria-invalid={Boolean(form.errors.portal_url)}
        required
      />
      <SecretField
        name="webhook_url"
        label={t`Входящий вебхук`}
        description={t`Ссылка вида https://clinic.bitrix24.ru/rest/1/ключ/`}
        visible
        masked={props.record ? shownWebhook(props.record.webhook_url) : null}
        value={form.values.webhook_url}
        onChange={(value) => form.set('webhook_url', value)}
        error={form.errors.webhook_url}
      />
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
