import * as v from 'valibot'
import { Role } from './user.ts'
import { email, Id, requiredText, RowVersion } from './validation.ts'

export const Workspace = v.object({
  id: Id,
  name: v.string(),
  version: RowVersion,
  /** The signed-in user's role in this workspace (docs/API.md, "Members"). */
  role: v.optional(Role),
})
export type Workspace = v.InferOutput<typeof Workspace>

export const WorkspaceInput = v.object({ name: requiredText() })
export const WorkspaceUpdate = v.object({ id: Id, name: requiredText() })

/** One member of a workspace (docs/API.md, "Members"). */
export const WorkspaceMember = v.object({
  user_id: Id,
  name: v.string(),
  email: v.string(),
  role: Role,
})
export type WorkspaceMember = v.InferOutput<typeof WorkspaceMember>

/** An invitation an admin made that is still waiting (admins see them among the members). */
export const PendingInvitation = v.object({
  invitation_id: Id,
  email: v.string(),
  /** The name of who invited (empty when they are gone). */
  invited_by: v.string(),
  created_at: v.string(),
  pending: v.literal(true),
})
export type PendingInvitation = v.InferOutput<typeof PendingInvitation>

/** `GET /api/workspace/members`: the members, then, for an admin, the invitations still waiting. */
export const MemberListEntry = v.union([WorkspaceMember, PendingInvitation])
export type MemberListEntry = v.InferOutput<typeof MemberListEntry>

/** An invitation waiting for the signed-in person (docs/API.md, "Members"). */
export const WorkspaceInvitation = v.object({
  id: Id,
  workspace_id: Id,
  workspace_name: v.string(),
  /** The name of who invited (empty when they are gone). */
  invited_by: v.string(),
  created_at: v.string(),
})
export type WorkspaceInvitation = v.InferOutput<typeof WorkspaceInvitation>

/** Tables a change event names (docs/API.md, "Live changes"). */
export const CHANGE_TABLES = [
  'workspace',
  'amo',
  'bitrix',
  'department',
  'location',
  'specialist',
  'project',
  'background',
  'block',
  'appeal',
] as const
export type ChangeTable = (typeof CHANGE_TABLES)[number]

/**
 * A colleague kept their own values over the person's with «Оставить моё» (docs/API.md,
 * "Conditional writes"): who, which record, each field's value the person had written (`was`) and the one
 * it holds now (`now`), and when. `kind` names the record's table as change events do; a block's
 * notice carries its type and its background's size (its place and size are shown in per cent).
 */
export const ChangeNotice = v.object({
  id: Id,
  workspace_id: Id,
  workspace_name: v.string(),
  /** The name of who kept theirs (empty when they are gone). */
  by: v.string(),
  kind: v.picklist(CHANGE_TABLES),
  record_id: Id,
  /** The record's name (a block's: its project's). */
  label: v.string(),
  changes: v.array(v.object({ field: v.string(), was: v.unknown(), now: v.unknown() })),
  block: v.nullable(
    v.object({
      type: v.string(),
      project_id: Id,
      bg_id: Id,
      bg_width: v.number(),
      bg_height: v.number(),
    }),
  ),
  created_at: v.string(),
})
export type ChangeNotice = v.InferOutput<typeof ChangeNotice>

/** What `member/add` answers, whoever the address belongs to. */
export const Invited = v.object({ invited: v.literal(true), email: v.string() })

export const MemberAddInput = v.object({ workspace_id: Id, email })
export const LeaveInput = v.object({ workspace_id: Id })
export const MemberRemoveInput = v.object({ workspace_id: Id, user_id: Id })

/** The data of one event of `GET /api/events`. */
export const ChangeEvent = v.object({
  table: v.picklist(CHANGE_TABLES),
  id: Id,
  version: v.number(),
  op: v.picklist(['add', 'update', 'delete']),
  project_id: v.optional(Id),
  bg_id: v.optional(Id),
  type: v.optional(v.string()),
  /** A visitor's request whose delivery moved on (its version unchanged): docs/API.md. */
  deliveries: v.optional(v.boolean()),
})
export type ChangeEvent = v.InferOutput<typeof ChangeEvent>
