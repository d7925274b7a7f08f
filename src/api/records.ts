import * as v from 'valibot'
import { Deleted } from '../domain/api-error.ts'
import { Department, Location, Specialist } from '../domain/directory.ts'
import { AmoIntegration, BitrixIntegration } from '../domain/integration.ts'
import { request, type IfMatch } from './client.ts'

/**
 * Integrations (amo, bitrix) and the directory (department, location, specialist):
 * docs/API.md "Integrations and directory".
 */
export const RECORD_SCHEMAS = {
  amo: AmoIntegration,
  bitrix: BitrixIntegration,
  department: Department,
  location: Location,
  specialist: Specialist,
} as const
export type ApiRecordKind = keyof typeof RECORD_SCHEMAS
export type ApiRecord<K extends ApiRecordKind> = v.InferOutput<(typeof RECORD_SCHEMAS)[K]>

export function listRecords<K extends ApiRecordKind>(kind: K, workspaceId: number) {
  return request(`/api/${kind}/list`, {
    query: { workspace_id: workspaceId },
    schema: v.array(RECORD_SCHEMAS[kind]),
  }) as Promise<ApiRecord<K>[]>
}

export function getRecord<K extends ApiRecordKind>(kind: K, id: number) {
  return request(`/api/${kind}/get`, { query: { id }, schema: RECORD_SCHEMAS[kind] }) as Promise<
    ApiRecord<K>
  >
}

/** `{kind}/add {"workspace_id", ...fields}` → the saved record. */
export function addRecord<K extends ApiRecordKind>(
  kind: K,
  input: { workspace_id: number } & Record<string, unknown>,
  idempotencyKey: string,
) {
  return request(`/api/${kind}/add`, {
    method: 'POST',
    body: input,
    schema: RECORD_SCHEMAS[kind],
    idempotencyKey,
  }) as Promise<ApiRecord<K>>
}

/** `{kind}/update {"id", ...fields}`: fields left out keep their values. */
export function updateRecord<K extends ApiRecordKind>(
  kind: K,
  id: number,
  fields: Record<string, unknown>,
  idempotencyKey: string,
  ifMatch?: IfMatch,
) {
  return request(`/api/${kind}/update`, {
    method: 'POST',
    body: { ...fields, id },
    schema: RECORD_SCHEMAS[kind],
    idempotencyKey,
    ifMatch,
  }) as Promise<ApiRecord<K>>
}

export function deleteRecord(
  kind: ApiRecordKind,
  id: number,
  idempotencyKey: string,
  ifMatch?: IfMatch,
) {
  return request(`/api/${kind}/delete`, {
    method: 'POST',
    body: { id },
    schema: Deleted,
    idempotencyKey,
    ifMatch,
  })
}

/** `disable` / `able` (amo, bitrix, specialist) → the record with its new `enabled`. */
export function setRecordEnabled<K extends 'amo' | 'bitrix' | 'specialist'>(
  kind: K,
  id: number,
  enabled: boolean,
  idempotencyKey: string,
  ifMatch?: IfMatch,
) {
  return request(`/api/${kind}/${enabled ? 'able' : 'disable'}`, {
    method: 'POST',
    body: { id },
    schema: RECORD_SCHEMAS[kind],
    idempotencyKey,
    ifMatch,
  }) as Promise<ApiRecord<K>>
}
