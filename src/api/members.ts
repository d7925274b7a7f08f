import * as v from 'valibot'
import { WorkspaceMember as Member } from '../domain/workspace.ts'
import { request } from './client.ts'

/** Members of a workspace (docs/API.md, "Members"): online calls, not queued. */
export function listMembers(workspaceId: number) {
  return request('/api/workspace/members', {
    query: { workspace_id: workspaceId },
    schema: v.array(Member),
  })
}

/** Adds a registered person by e-mail (admins only); answers the member. */
export function addMember(workspaceId: number, email: string) {
  return request('/api/workspace/member/add', {
    method: 'POST',
    body: { workspace_id: workspaceId, email },
    schema: Member,
    idempotencyKey: crypto.randomUUID(),
  })
}

export function removeMember(workspaceId: number, userId: number) {
  return request('/api/workspace/member/remove', {
    method: 'POST',
    body: { workspace_id: workspaceId, user_id: userId },
    schema: v.unknown(),
    idempotencyKey: crypto.randomUUID(),
  })
}
