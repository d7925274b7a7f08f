import * as v from 'valibot'
import { Deleted } from '../domain/api-error.ts'
import { Workspace } from '../domain/workspace.ts'
import { request, type IfMatch } from './client.ts'

export function listWorkspaces() {
  return request('/api/workspace/list', { schema: v.array(Workspace) })
}

export function addWorkspace(name: string, idempotencyKey: string) {
  return request('/api/workspace/add', {
    method: 'POST',
    body: { name },
    schema: Workspace,
    idempotencyKey,
  })
}

export function updateWorkspace(
  id: number,
  name: string,
  idempotencyKey: string,
  ifMatch?: IfMatch,
) {
  return request('/api/workspace/update', {
    method: 'POST',
    body: { id, name },
    schema: Workspace,
    idempotencyKey,
    ifMatch,
  })
}

export function deleteWorkspace(id: number, idempotencyKey: string, ifMatch?: IfMatch) {
  return request('/api/workspace/delete', {
    method: 'POST',
    body: { id },
    schema: Deleted,
    idempotencyKey,
    ifMatch,
  })
}
