import type { Hono } from 'hono'
import { AppealListQuery, AppealUpdate } from '../../../src/domain/appeal.ts'
import { IdBody, IdQuery, WorkspaceQuery } from '../../../src/domain/requests.ts'
import { parseInput } from '../../services/validate.ts'
import { hookSecret } from '../../storage/deliveries.ts'
import { memberRole } from '../../storage/workspaces.ts'
import { AppError } from '../../services/errors.ts'
import { json } from '../answer.ts'
import type { AppEnv } from '../env.ts'
import { readJson } from '../errors.ts'
import { ifMatch } from '../if-match.ts'
import { AMO_OAUTH_TEXTS } from '../messages.ts'
import { productRoutes } from './define.ts'

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  )

/** The small page the OAuth callback answers in the person's browser. */
function oauthPage(text: string, status: number): Response {
  const html = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(AMO_OAUTH_TEXTS.title)}</title></head><body><h1>${escapeHtml(AMO_OAUTH_TEXTS.title)}</h1><p>${escapeHtml(text)}</p></body></html>`
  return new Response(html, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}

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
  // amoCRM sends the person's browser here: no sign-in, the one-time `state` names the integration.
  api.get('/amo/oauth/callback', async (c) => {
    const result = await c.get('services').integrations.amoCallback({
      code: c.req.query('code'),
      state: c.req.query('state'),
      referer: c.req.query('referer'),
      error: c.req.query('error'),
    })
    if (result.ok) return oauthPage(AMO_OAUTH_TEXTS.connected, 200)
    const text =
      result.reason === 'bad_state'
        ? AMO_OAUTH_TEXTS.badState
        : result.reason === 'other_account'
          ? AMO_OAUTH_TEXTS.otherAccount
          : result.reason === 'denied'
            ? AMO_OAUTH_TEXTS.denied
            : `${AMO_OAUTH_TEXTS.refused}: ${result.detail ?? ''}`
    return oauthPage(text, result.reason === 'refused' ? 502 : 400)
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
