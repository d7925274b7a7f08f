import * as v from 'valibot'
import { FieldCode, Id, IdParam } from './validation.ts'

/**
 * Visitors' requests («Обращения», docs/API.md "Requests"): what a published page's gift, price
 * and subscribe forms send, kept with one delivery per CRM integration (docs/crm.md). Shared by
 * the app, the sync worker and the server.
 */

export const APPEAL_KINDS = ['gift', 'price', 'subscribe'] as const
export const AppealKind = v.picklist(APPEAL_KINDS, FieldCode.invalidChoice)
export type AppealKind = v.InferOutput<typeof AppealKind>

/** Новое → В работе → Обработано; Спам (kept, never delivered). */
export const APPEAL_STATUSES = ['new', 'in_work', 'done', 'spam'] as const
export const AppealStatus = v.picklist(APPEAL_STATUSES, FieldCode.invalidChoice)
export type AppealStatus = v.InferOutput<typeof AppealStatus>

/** Where a request goes: a CRM integration of the workspace, or the gift block's web hook. */
export const DELIVERY_TARGETS = ['amo', 'bitrix', 'hook'] as const
export const DeliveryTarget = v.picklist(DELIVERY_TARGETS)
export type DeliveryTarget = v.InferOutput<typeof DeliveryTarget>

export const DELIVERY_STATES = ['queued', 'delivered', 'failed', 'skipped'] as const
export const DeliveryState = v.picklist(DELIVERY_STATES)
export type DeliveryState = v.InferOutput<typeof DeliveryState>

export const UTM_KEYS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
] as const
export type UtmKey = (typeof UTM_KEYS)[number]

export const Utm = v.object({
  utm_source: v.optional(v.string()),
  utm_medium: v.optional(v.string()),
  utm_campaign: v.optional(v.string()),
  utm_content: v.optional(v.string()),
  utm_term: v.optional(v.string()),
})
export type Utm = v.InferOutput<typeof Utm>

/** One delivery of a request, as the list and get answer it. */
export const AppealDelivery = v.object({
  integration_kind: DeliveryTarget,
  /** The amo or bitrix integration; null for the web hook. */
  integration_id: v.nullable(Id),
  state: DeliveryState,
  /** The lead's id in the CRM once delivered. */
  crm_id: v.nullable(v.string()),
  attempts: v.number(),
  /** Russian text of the last failure, '' when none. */
  last_error: v.string(),
  /** ISO 8601 while queued, else null. */
  next_attempt_at: v.nullable(v.string()),
})
export type AppealDelivery = v.InferOutput<typeof AppealDelivery>

/** A visitor's request (`GET /api/appeal/list`, `/get`). */
export const Appeal = v.object({
  id: Id,
  workspace_id: Id,
  project_id: Id,
  block_id: Id,
  kind: AppealKind,
  name: v.string(),
  /** +7XXXXXXXXXX. */
  phone: v.string(),
  email: v.string(),
  comment: v.string(),
  specialist_id: v.nullable(Id),
  date: v.string(),
  price: v.nullable(v.number()),
  utm: Utm,
  referrer: v.string(),
  page_url: v.string(),
  status: AppealStatus,
  created_at: v.string(),
  version: v.number(),
  deliveries: v.array(AppealDelivery),
})
export type Appeal = v.InferOutput<typeof Appeal>

/** `before` (an id) and `limit` (1–1000) take a window of the list, newest first; both optional. */
export const AppealListQuery = v.object({
  workspace_id: IdParam,
  before: v.optional(IdParam),
  limit: v.optional(v.pipe(IdParam, v.maxValue(1000, FieldCode.outOfRange))),
})
export const AppealUpdate = v.object({ id: Id, status: AppealStatus })
export type AppealUpdate = v.InferOutput<typeof AppealUpdate>

/**
 * What an integration's page shows (`GET /api/integration/state`): `connected` «Подключено»,
 * `not_connected` «Требуется подключение» (amoCRM without a token yet), `reconnect` «Требуется
 * повторное подключение» (amoCRM refused to refresh the token: its deliveries wait), `error`
 * «Ошибка: …» (the last attempt failed), `disabled`. `message` is the server's Russian text.
 */
export const INTEGRATION_STATES = [
  'connected',
  'not_connected',
  'reconnect',
  'error',
  'disabled',
] as const
export const IntegrationState = v.object({
  kind: v.picklist(['amo', 'bitrix']),
  id: Id,
  state: v.picklist(INTEGRATION_STATES),
  message: v.string(),
  /** When the last request reached this CRM (ISO 8601), or null. */
  last_delivered_at: v.nullable(v.string()),
  delivered: v.number(),
  queued: v.number(),
  failed: v.number(),
})
export type IntegrationState = v.InferOutput<typeof IntegrationState>

/** The answer of «Проверить» (`POST /api/amo/check`, `/api/bitrix/check`). */
export const IntegrationCheck = v.object({ ok: v.boolean(), message: v.string() })
export type IntegrationCheck = v.InferOutput<typeof IntegrationCheck>

/** The workspace's secret that signs the gift's web hook (`GET /api/workspace/hook_secret`). */
export const HookSecret = v.object({ workspace_id: Id, secret: v.string() })

/**
 * A request's event on `GET /api/events` (docs/API.md, "Live changes"): `add` when it arrives,
 * `update` when its status changes, and `update` with `deliveries: true` and the version unchanged
 * when one of its deliveries moves on; `delete`. The app reads it as a ChangeEvent
 * (domain/workspace.ts) of table `appeal`.
 */
export const AppealChangeEvent = v.object({
  table: v.literal('appeal'),
  id: Id,
  version: v.number(),
  op: v.picklist(['add', 'update', 'delete']),
  deliveries: v.optional(v.boolean()),
})
export type AppealChangeEvent = v.InferOutput<typeof AppealChangeEvent>

/** A query value of amoCRM's redirect: printable ASCII of the shape it sends. */
const callbackValue = (pattern: RegExp) =>
  v.optional(
    v.pipe(
      v.string(FieldCode.invalidValue),
      v.maxLength(4096, FieldCode.tooLong),
      v.regex(pattern, FieldCode.invalidValue),
    ),
  )

/**
 * What amoCRM's redirect brings to `GET /api/amo/oauth/callback` (any of it may be missing): the
 * code, the `state` of the consent link, the account's host, and `error` when the person refused.
 */
export const AmoOauthCallbackQuery = v.object({
  code: callbackValue(/^[A-Za-z0-9._~+/=-]+$/),
  state: callbackValue(/^[A-Za-z0-9_-]+$/),
  referer: callbackValue(/^[A-Za-z0-9.-]+$/),
  error: callbackValue(/^[A-Za-z0-9._ -]+$/),
})

export { AMO_OAUTH_OUTCOMES, type AmoOauthOutcome } from './amo-oauth.ts'

/** The answer of «Подключить amoCRM» (`POST /api/amo/connect`): amoCRM's consent page. */
export const AmoConnect = v.object({ url: v.string() })
