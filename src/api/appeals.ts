import * as v from 'valibot'
import { AmoConnect, Appeal, IntegrationCheck, IntegrationState } from '../domain/appeal.ts'
import type { AppealStatus } from '../domain/appeal.ts'
import { Deleted } from '../domain/api-error.ts'
import type { IntegrationKind } from '../domain/integration.ts'
import { request, type IfMatch } from './client.ts'

/** Visitors' requests and the integrations' state (docs/API.md, "Requests"). */

/** How many requests one window of the list holds (the API allows 1–1000). */
export const APPEAL_WINDOW = 500

/** One window of a workspace's requests, newest first: those older than `before` when given. */
export function listAppeals(workspaceId: number, window: { before?: number; limit?: number } = {}) {
  return request('/api/appeal/list', {
    query: {
      workspace_id: workspaceId,
      limit: window.limit ?? APPEAL_WINDOW,
      ...(window.before === undefined ? {} : { before: window.before }),
    },
    schema: v.array(Appeal),
  })
}

export function getAppeal(id: number) {
  return request('/api/appeal/get', { query: { id }, schema: Appeal })
}

/** `appeal/update {id, status}` with If-Match → the request. */
export function updateAppeal(
  id: number,
  status: AppealStatus,
  idempotencyKey: string,
  ifMatch?: IfMatch,
) {
  return request('/api/appeal/update', {
    method: 'POST',
    body: { id, status },
    schema: Appeal,
    idempotencyKey,
    ifMatch,
  })
}

/** Admins only (`403` for an editor). */
export function deleteAppeal(id: number, idempotencyKey: string, ifMatch?: IfMatch) {
  return request('/api/appeal/delete', {
    method: 'POST',
    body: { id },
    schema: Deleted,
    idempotencyKey,
    ifMatch,
  })
}

/** «Повторить отправку»: the failed deliveries are queued again. Needs the network. */
export function retryAppeal(id: number) {
  return request('/api/appeal/retry', { method: 'POST', body: { id }, schema: Appeal })
}

export function integrationStates(workspaceId: number) {
  return request('/api/integration/state', {
    query: { workspace_id: workspaceId },
    schema: v.array(IntegrationState),
  })
}

/** «Проверить»: a harmless call to the CRM and what it said, in Russian. */
export function checkIntegration(kind: IntegrationKind, id: number) {
  return request(`/api/${kind}/check`, {
    method: 'POST',
    body: { id },
    schema: IntegrationCheck,
  })
}

/** «Подключить amoCRM»: amoCRM's consent page to send the person to. */
export function connectAmo(id: number) {
  return request('/api/amo/connect', { method: 'POST', body: { id }, schema: AmoConnect })
}
