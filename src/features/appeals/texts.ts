import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type {
  AppealKind,
  AppealStatus,
  DeliveryState,
  DeliveryTarget,
} from '../../domain/appeal.ts'

/** The names «Обращения» gives codes (docs/requests.md), translated where they are shown. */

export const STATUS_NAMES: Record<AppealStatus, MessageDescriptor> = {
  new: msg`Новое`,
  in_work: msg`В работе`,
  done: msg`Обработано`,
  spam: msg`Спам`,
}

/** The order a request goes through: Новое → В работе → Обработано, and Спам aside. */
export const STATUS_ORDER: readonly AppealStatus[] = ['new', 'in_work', 'done', 'spam']

export const STATUS_COLORS: Record<AppealStatus, 'blue' | 'orange' | 'teal' | 'gray'> = {
  new: 'blue',
  in_work: 'orange',
  done: 'teal',
  spam: 'gray',
}

export const KIND_NAMES: Record<AppealKind, MessageDescriptor> = {
  gift: msg`Подарок`,
  price: msg`Цена`,
  subscribe: msg`Запись`,
}

export const TARGET_NAMES: Record<DeliveryTarget, MessageDescriptor> = {
  amo: msg`amoCRM`,
  bitrix: msg`Битрикс24`,
  hook: msg`Вебхук подарка`,
}

export const DELIVERY_NAMES: Record<DeliveryState, MessageDescriptor> = {
  queued: msg`В очереди`,
  delivered: msg`Доставлено`,
  failed: msg`Не доставлено`,
  skipped: msg`Не отправлялось`,
}

export const DELIVERY_COLORS: Record<DeliveryState, 'blue' | 'teal' | 'red' | 'gray'> = {
  queued: 'blue',
  delivered: 'teal',
  failed: 'red',
  skipped: 'gray',
}
