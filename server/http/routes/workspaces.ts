import type { Hono } from 'hono'
import { IdBody, WorkspaceQuery } from '../../../src/domain/requests.ts'
import {
  LeaveInput,
  MemberAddInput,
  MemberRemoveInput,
  WorkspaceInput,
  WorkspaceUpdate,
} from '../../../src/domain/workspace.ts'
import { normaliseEmail } from '../../services/auth.ts'
import { parseInput } from '../../services/validate.ts'
import type { AppEnv } from '../env.ts'
import { readJson } from '../errors.ts'
import { ifMatch } from '../if-match.ts'
import { productRoutes } from './define.ts'
import { json } from '../answer.ts'

export function workspaceRoutes(api: Hono<AppEnv>): void {
  const { query, mutation } = productRoutes(api)
  query('/workspace/list', async (c) =>
    json(await c.get('services').workspaces.list(c.get('user').id)),
  )
  mutation('/workspace/add', async (c) => {
    const { name } = parseInput(WorkspaceInput, await readJson(c))
    return json(await c.get('services').workspaces.add(c.get('user').id, name))
  })
  mutation('/workspace/update', async (c) => {
    const expected = ifMatch(c)
    const { id, name } = parseInput(WorkspaceUpdate, await readJson(c))
    return json(await c.get('services').workspaces.rename(c.get('user').id, id, name, expected))
  })
  mutation('/workspace/delete', async (c) => {
    const expected = ifMatch(c)
    const { id } = parseInput(IdBody, await readJson(c))
    await c.get('services').workspaces.delete(c.get('user').id, id, expected)
    return json({ id, deleted: true })
  })

  // Members (docs/API.md, "Members"): any member lists them, an admin invites and removes them;
  // the invited person accepts or declines, a member leaves.
  query('/workspace/members', async (c) => {
    const { workspace_id } = parseInput(WorkspaceQuery, c.req.query())
    return json(await c.get('services').workspaces.members(c.get('user').id, workspace_id))
  })
  mutation('/workspace/member/add', async (c) => {
    const { workspace_id, email } = parseInput(MemberAddInput, await readJson(c))
    const { workspaces, throttle } = c.get('services')
    throttle.inviteAttempt(c.get('user').id, normaliseEmail(email))
    return json(await workspaces.invite(c.get('user').id, workspace_id, email))
  })
  mutation('/workspace/invitation/cancel', async (c) => {
    const { id } = parseInput(IdBody, await readJson(c))
    const workspaceId = await c.get('services').workspaces.cancelInvitation(c.get('user').id, id)
    return json({ id, workspace_id: workspaceId, cancelled: true })
  })
  query('/workspace/invitations', async (c) =>
    json(await c.get('services').workspaces.invitations(c.get('user').id)),
  )
  mutation('/workspace/invitation/accept', async (c) => {
    const { id } = parseInput(IdBody, await readJson(c))
    return json(await c.get('services').workspaces.accept(c.get('user').id, id))
  })
  mutation('/workspace/invitation/decline', async (c) => {
    const { id } = parseInput(IdBody, await readJson(c))
    await c.get('services').workspaces.decline(c.get('user').id, id)
    return json({ id, declined: true })
  })
  // What colleagues kept over the person's own values (docs/API.md "Members").
  query('/workspace/notices', async (c) =>
    json(await c.get('services').workspaces.notices(c.get('user').id)),
  )
  mutation('/workspace/notice/dismiss', async (c) => {
    const { id } = parseInput(IdBody, await readJson(c))
    await c.get('services').workspaces.dismissNotice(c.get('user').id, id)
    return json({ id, dismissed: true })
  })
  mutation('/workspace/leave', async (c) => {
    const { workspace_id } = parseInput(LeaveInput, await readJson(c))
    await c.get('services').workspaces.leave(c.get('user').id, workspace_id)
    return json({ workspace_id, left: true })
  })
  mutation('/workspace/member/remove', async (c) => {
    const { workspace_id, user_id } = parseInput(MemberRemoveInput, await readJson(c))
    await c.get('services').workspaces.removeMember(c.get('user').id, workspace_id, user_id)
    return json({ workspace_id, user_id, removed: true })
  })
}
