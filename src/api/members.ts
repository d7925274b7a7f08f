import * as v from 'valibot'
import {
  ChangeNotice,
  Invited,
  MemberListEntry,
  Workspace,
  WorkspaceInvitation,
} from '../domain/workspace.ts'
import { request } from './client.ts'

/**
 * Members and invitations (docs/API.md, "Members"): online calls, not queued. To an admin the
 * list holds the invitations still waiting too.
 */
export function listMembers(workspaceId: number) {
  return request('/api/workspace/members', {
    query: { workspace_id: workspaceId },
    schema: v.array(MemberListEntry),
  })
}

/** Invites an address (admins only); the answer is the same whoever it belongs to. */
export function addMember(workspaceId: number, email: string) {
  return request('/api/workspace/member/add', {
    method: 'POST',
    body: { workspace_id: workspaceId, email },
    schema: Invited,
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

/** Withdraws an invitation still waiting (admins only). */
export function cancelInvitation(id: number) {
  return request('/api/workspace/invitation/cancel', {
    method: 'POST',
    body: { id },
    schema: v.unknown(),
    idempotencyKey: crypto.randomUUID(),
  })
}

/** The signed-in person's invitations waiting. */
export function listInvitations() {
  return request('/api/workspace/invitations', { schema: v.array(WorkspaceInvitation) })
}

/** Accepts an invitation: answers the workspace, the person's as an editor now. */
export function acceptInvitation(id: number) {
  return request('/api/workspace/invitation/accept', {
    method: 'POST',
    body: { id },
    schema: Workspace,
    idempotencyKey: crypto.randomUUID(),
  })
}

export function declineInvitation(id: number) {
  return request('/api/workspace/invitation/decline', {
    method: 'POST',
    body: { id },
    schema: v.unknown(),
    idempotencyKey: crypto.randomUUID(),
  })
}

/** The signed-in member leaves the workspace (the last admin cannot: 422). */
export function leaveWorkspaceCall(workspaceId: number) {
  return request('/api/workspace/leave', {
    method: 'POST',
    body: { workspace_id: workspaceId },
    schema: v.unknown(),
    idempotencyKey: crypto.randomUUID(),
  })
}

/** What colleagues kept over the signed-in person's own values, newest first. */
export function listNotices() {
  return request('/api/workspace/notices', { schema: v.array(ChangeNotice) })
}

/** The person has read a notice: it goes. */
export function dismissNotice(id: number) {
  return request('/api/workspace/notice/dismiss', {
    method: 'POST',
    body: { id },
    schema: v.unknown(),
    idempotencyKey: crypto.randomUUID(),
  })
}
