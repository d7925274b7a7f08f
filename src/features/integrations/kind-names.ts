import './integration-messages.ts'
import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { IntegrationKind } from '../../domain/integration.ts'

/** Product names are not translated; the plural title is. */
export const KIND_NAME: Record<IntegrationKind, string> = { amo: 'amoCRM', bitrix: 'Bitrix24' }

export const KIND_DESCRIPTION: Record<IntegrationKind, MessageDescriptor> = {
  amo: msg`Заявки с лендингов попадают в воронку amoCRM. Нужны поддомен аккаунта и ключи интеграции.`,
  bitrix: msg`Заявки уходят в CRM портала Битрикс24 через входящий вебхук.`,
}
