import type { Hono } from 'hono'
import { AmoOauthCallbackQuery, AppealListQuery, AppealUpdate } from '../../../src/domain/appeal.ts'
import { IdBody, IdQuery, WorkspaceQuery } from '../../../src/domain/requests.ts'
import { parseInput } from '../../services/validate.ts'
import { hookSecret } from '../../storage/deliveries.ts'
import { memberRole } from '../../storage/workspaces.ts'
import { AppError } from '../../services/errors.ts'
import { json } from '../answer.ts'
import type { AppEnv } from '../env.ts'
import { readJson } from '../errors.ts'
import { ifMatch } from '../if-match.ts'
import { productRoutes } from './define.ts'

/**
 * Visitors' requests and what the integrations' pages need (docs/API.md, "Requests"): only the
 * workspace's members see them; a delete is the admin's.
 */
export function appealRoutes(api: Hono<AppEnv>): void {
  const { query, mutation } = productRoutes(api)
  query('/appeal/list', async (c) => {
    const { workspace_id, before, limit } = parseInput(AppealListQuery, c.req.query())
    const list = await c.get('services').appeals.list(c.get('user').id, workspace_id, {
      before,
      limit,
    })
    return json(list)
  })
  query('/appeal/get', async (c) => {
    const { id } = parseInput(IdQuery, c.req.query())
    return json(await c.get('services').appeals.get(c.get('user').id, id))
  })
  mutation('/appeal/update', async (c) => {
    const expected = ifMatch(c)
    const input = parseInput(AppealUpdate, await readJson(c))
    return json(await c.get('services').appeals.update(c.get('user').id, input, expected))
  })
  mutation('/appeal/retry', async (c) => {
    const { id } = parseInput(IdBody, await readJson(c))
    return json(await c.get('services').appeals.retry(c.get('user').id, id))
  })
  mutation('/appeal/delete', async (c) => {
    const expected = ifMatch(c)
    const { id } = parseInput(IdBody, await readJson(c))
    await c.get('services').appeals.delete(c.get('user').id, id, expected)
    return json({ id, deleted: true })
  })

  query('/integration/state', async (c) => {
    const { workspace_id } = parseInput(WorkspaceQuery, c.req.query())
    return json(await c.get('services').integrations.states(c.get('user').id, workspace_id))
  })
  mutation('/amo/check', async (c) => {
    const { id } = parseInput(IdBody, await readJson(c))
    return json(await c.get('services').integrations.checkAmo(c.get('user').id, id))
  })
  mutation('/bitrix/check', async (c) => {
    const { id } = parseInput(IdBody, await readJson(c))
    return json(await c.get('services').integrations.checkBitrix(c.get('user').id, id))
  })
  mutation('/amo/connect', async (c) => {
    const { id } = parseInput(IdBody, await readJson(c))
    return json(await c.get('services').integrations.connectAmo(c.get('user').id, id))
  })
  // amoCRM sends the person's browser here: no sign-in, the one-time `state` names the
  // integration. The person goes back to its page in the app, the outcome in `amo_oauth`.
  api.get('/amo/oauth/callback', async (c) => {
    const query = parseInput(AmoOauthCallbackQuery, c.req.query())
    const { outcome, integrationId } = await c.get('services').integrations.amoCallback(query)
    const page = integrationId === null ? '/integrations/amo' : `/integrations/amo/${integrationId}`
    return c.redirect(`${page}?amo_oauth=${outcome}`, 303)
  })
  // The secret the gift's web hook is signed with, for the receiver to check (admins only).
  query('/workspace/hook_secret', async (c) => {
    const { workspace_id } = parseInput(WorkspaceQuery, c.req.query())
    const { db } = c.get('services')
    const role = await memberRole(db, c.get('user').id, workspace_id)
    if (!role) throw AppError.notFound()
    if (role !== 'admin') throw AppError.forbidden()
    return json({ workspace_id, secret: await hookSecret(db, workspace_id) })
  })
}
