import './integration-messages.ts'
import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type * as v from 'valibot'
import type { RecordOf } from '../../data/types.ts'
import {
  AmoFields,
  BitrixFields,
  maskSecret,
  maskWebhookUrl,
  type IntegrationKind,
} from '../../domain/integration.ts'
import type { TextInputProps } from '../../ui/text-input.tsx'

// The names live apart so the list pages load them without the forms' specs.
export { KIND_DESCRIPTION, KIND_NAME } from './kind-names.ts'

/**
 * The field of each kind that holds a secret (a key, or a webhook URL with a token in it): shown
 * masked, kept unless the user replaces it (docs/API.md "Integrations and directory").
 */
export const SECRET_FIELD = {
  amo: 'client_secret',
  bitrix: 'webhook_url',
} as const satisfies Record<IntegrationKind, string>
export type SecretField<K extends IntegrationKind> = (typeof SECRET_FIELD)[K]

/** The plain text fields of a kind, besides the name (every one is required). */
export type TextFieldName<K extends IntegrationKind> = K extends IntegrationKind
  ? Exclude<keyof RecordOf<K>, 'id' | 'workspace_id' | 'name' | 'enabled' | SecretField<K>>
  : never

interface FieldTexts {
  label: MessageDescriptor
  description?: MessageDescriptor
}

/** One field of an integration form after the name, in the order the form shows them. */
export type IntegrationField<K extends IntegrationKind> =
  | (FieldTexts & {
      type: 'text'
      name: TextFieldName<K>
      /** Input attributes of this field (type, placeholder, …). */
      input?: Omit<TextInputProps, 'form' | 'name' | 'value' | 'onChange' | 'error' | 'label'>
    })
  | (FieldTexts & {
      type: 'secret'
      /** Plain text rather than a password field (a URL the user checks by eye). */
      visible?: boolean
      /** How the stored value is shown. */
      mask: (stored: string) => string
    })

export interface IntegrationFormSpec<K extends IntegrationKind> {
  /** The server's fields, so the form validates as the server does. */
  entries: v.ObjectEntries
  namePlaceholder: MessageDescriptor
  fields: readonly IntegrationField<K>[]
}

/** A sample address, the same in every language. */
const EXAMPLE_PORTAL = 'https://clinic.bitrix24.ru'

export const KIND_FORM: { [K in IntegrationKind]: IntegrationFormSpec<K> } = {
  amo: {
    entries: AmoFields,
    namePlaceholder: msg`Например, Основная воронка`,
    fields: [
      {
        type: 'text',
        name: 'subdomain',
        label: msg`Поддомен amoCRM`,
        description: msg`Часть адреса аккаунта перед .amocrm.ru`,
        input: {
          placeholder: 'clinic',
          rightSection: '.amocrm.ru',
          rightSectionWidth: 112,
          autoCapitalize: 'none',
          spellCheck: false,
        },
      },
      {
        type: 'text',
        name: 'client_id',
        label: msg`ID интеграции (client id)`,
        input: { spellCheck: false },
      },
      { type: 'secret', label: msg`Секретный ключ (client secret)`, mask: maskSecret },
      {
        type: 'text',
        name: 'redirect_uri',
        label: msg`Ссылка для перенаправления (redirect URI)`,
        input: {
          type: 'url',
          inputMode: 'url',
          placeholder: 'https://example.ru/amocrm/callback',
          spellCheck: false,
        },
      },
    ],
  },
  bitrix: {
    entries: BitrixFields,
    namePlaceholder: msg`Например, Портал клиники`,
    fields: [
      {
        type: 'text',
        name: 'portal_url',
        label: msg`Адрес портала`,
        description: msg`Например, https://clinic.bitrix24.ru`,
        input: {
          type: 'url',
          inputMode: 'url',
          placeholder: EXAMPLE_PORTAL,
          spellCheck: false,
        },
      },
      {
        type: 'secret',
        label: msg`Входящий вебхук`,
        description: msg`Ссылка вида https://clinic.bitrix24.ru/rest/1/ключ/`,
        visible: true,
        mask: maskWebhookUrl,
      },
    ],
  },
}
