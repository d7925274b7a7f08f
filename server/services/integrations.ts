import { randomBytes } from 'node:crypto'
import type { Database } from '../db/database.ts'
import type {
  AmoOauthOutcome,
  IntegrationCheck,
  IntegrationState,
} from '../../src/domain/appeal.ts'
import { AMO_HOST, amoHost } from '../crm/amo.ts'
import type { Failure } from '../crm/types.ts'
import { CHECK_TEXTS, deliveryError, INTEGRATION_STATE_TEXTS } from '../common/messages.ts'
import { loadAmo, putOauthState, storeConnected, takeOauthState } from '../storage/amo-auth.ts'
import { loadBitrix } from '../storage/deliveries.ts'
import { findRecordForUser } from '../storage/records.ts'
import { isMember } from '../storage/workspaces.ts'
import type { DeliveryQueue } from './delivery.ts'
import { AppError } from './errors.ts'
import type { PublicOrigin } from './pages.ts'

/** amoCRM's consent page (docs/crm.md, "amoCRM: OAuth"). */
const AMO_CONSENT = 'https://www.amocrm.ru/oauth'
/** How long a consent link's `state` is good for. */
const STATE_TTL_MS = 3_600_000

/** Where amoCRM sends the person back when the integration names no redirect URI. */
export const AMO_CALLBACK_PATH = '/api/amo/oauth/callback'

/** Codes that say nothing about whether the integration works (a pause, a token being refreshed). */
const PASSING = new Set(['', 'rate_limited', 'amo_refreshing', 'spam'])

interface StateRow {
  kind: 'amo' | 'bitrix'
  id: number
  enabled: boolean
  has_token: boolean
  has_oauth: boolean
  refused: boolean
  delivered: number
  queued: number
  failed: number
  last_delivered_at: string | null
  last_state: string | null
  last_code: string | null
  last_detail: string | null
}

/** How the OAuth callback ended, and for which integration (null: the link was not known). */
export interface CallbackResult {
  outcome: AmoOauthOutcome
  integrationId: number | null
}

/**
 * What the integrations' pages show besides their settings (docs/API.md, "Requests"): each one's
 * state and its deliveries' counts, «Проверить», and amoCRM's OAuth connection.
 */
export class IntegrationService {
  constructor(
    private readonly db: Database,
    private readonly queue: DeliveryQueue,
    private readonly origin: PublicOrigin,
  ) {}

  async states(userId: number, workspaceId: number): Promise<IntegrationState[]> {
    if (!(await isMember(this.db, userId, workspaceId))) throw AppError.notFound()
    const counts = (kind: string, id: string) => `
      (SELECT count(*)::int FROM appeal_deliveries d
        WHERE d.integration_kind = '${kind}' AND d.integration_id = ${id} AND d.state = 'delivered') AS delivered,
      (SELECT count(*)::int FROM appeal_deliveries d
        WHERE d.integration_kind = '${kind}' AND d.integration_id = ${id} AND d.state = 'queued') AS queued,
      (SELECT count(*)::int FROM appeal_deliveries d
        WHERE d.integration_kind = '${kind}' AND d.integration_id = ${id} AND d.state = 'failed') AS failed,
      (SELECT to_char(max(d.delivered_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        FROM appeal_deliveries d WHERE d.integration_kind = '${kind}' AND d.integration_id = ${id})
        AS last_delivered_at,
      l.state AS last_state, l.error_code AS last_code, l.error_detail AS last_detail`
    const last = (kind: string, id: string) => `LEFT JOIN LATERAL (
        SELECT d.state, d.error_code, d.error_detail FROM appeal_deliveries d
        WHERE d.integration_kind = '${kind}' AND d.integration_id = ${id}
          AND d.attempted_at IS NOT NULL
        ORDER BY d.attempted_at DESC LIMIT 1) l ON true`
    const { rows } = await this.db.query<StateRow>(
      `SELECT * FROM (
         SELECT 'amo' AS kind, i.id, i.enabled, i.long_lived_token <> '' AS has_token,
           COALESCE(a.refresh_token IS NOT NULL, false) AS has_oauth,
           COALESCE(a.failed_version = i.version, false) AS refused, ${counts('amo', 'i.id')}
         FROM amo_integrations i LEFT JOIN amo_auth a ON a.integration_id = i.id
         ${last('amo', 'i.id')}
         WHERE i.workspace_id = $1
         UNION ALL
         SELECT 'bitrix', b.id, b.enabled, true, false, false, ${counts('bitrix', 'b.id')}
         FROM bitrix_integrations b ${last('bitrix', 'b.id')}
         WHERE b.workspace_id = $1
       ) s ORDER BY kind, id`,
      [workspaceId],
    )
    return rows.map((row) => {
      const { state, message } = this.stateOf(row)
      return {
        kind: row.kind,
        id: row.id,
        state,
        message,
        last_delivered_at: row.last_delivered_at,
        delivered: row.delivered,
        queued: row.queued,
        failed: row.failed,
      }
    })
  }

  private stateOf(row: StateRow): { state: IntegrationState['state']; message: string } {
    const say = (
      state: IntegrationState['state'],
      message: string = INTEGRATION_STATE_TEXTS[state],
    ) => ({
      state,
      message,
    })
    if (!row.enabled) return say('disabled')
    if (row.kind === 'amo') {
      if (row.refused && row.has_token) {
        return say(
          'error',
          `${INTEGRATION_STATE_TEXTS.error}: ${deliveryError('amo_unauthorized', '')}`,
        )
      }
      if (row.refused) return say('reconnect')
      if (!row.has_token && !row.has_oauth) return say('not_connected')
    }
    const code = row.last_code ?? ''
    if (row.last_state !== 'delivered' && !PASSING.has(code)) {
      return say(
        'error',
        `${INTEGRATION_STATE_TEXTS.error}: ${deliveryError(code, row.last_detail ?? '')}`,
      )
    }
    return say('connected')
  }

  private failureText(failure: Failure): IntegrationCheck {
    return { ok: false, message: deliveryError(failure.code, failure.detail ?? '') }
  }

  /** «Проверить» an amoCRM integration: `GET /api/v4/account` with its token. */
  async checkAmo(userId: number, id: number): Promise<IntegrationCheck> {
    if (!(await findRecordForUser(this.db, 'amo', id, userId))) throw AppError.notFound()
    const target = await loadAmo(this.db, id)
    if (!target) throw AppError.notFound()
    if (!target.enabled) return { ok: false, message: CHECK_TEXTS.disabled }
    const result = await this.queue.amoChannel.check(target, this.queue.plainCall)
    if (!result.ok) return this.failureText(result)
    this.queue.wake()
    return { ok: true, message: CHECK_TEXTS.amoOk(result.name || amoHost(target)) }
  }

  /** «Проверить» a Bitrix24 integration: the webhook's `profile`. */
  async checkBitrix(userId: number, id: number): Promise<IntegrationCheck> {
    if (!(await findRecordForUser(this.db, 'bitrix', id, userId))) throw AppError.notFound()
    const target = await loadBitrix(this.db, id)
    if (!target) throw AppError.notFound()
    if (!target.enabled) return { ok: false, message: CHECK_TEXTS.disabled }
    const result = await this.queue.bitrixChannel.check(target, this.queue.plainCall)
    if (!result.ok) return this.failureText(result)
    return { ok: true, message: CHECK_TEXTS.bitrixOk(result.name) }
  }

  private redirectUri(redirect: string): string {
    return redirect || `${this.origin.value ?? ''}${AMO_CALLBACK_PATH}`
  }

  /** «Подключить amoCRM»: the consent page's address, with a `state` good once for an hour. */
  async connectAmo(userId: number, id: number): Promise<{ url: string }> {
    if (!(await findRecordForUser(this.db, 'amo', id, userId))) throw AppError.notFound()
    const target = await loadAmo(this.db, id)
    if (!target) throw AppError.notFound()
    const state = randomBytes(24).toString('hex')
    await putOauthState(this.db, id, state, STATE_TTL_MS)
    const query = new URLSearchParams({
      client_id: target.client_id,
      state,
      mode: 'post_message',
    })
    return { url: `${AMO_CONSENT}?${query}` }
  }

  /**
   * amoCRM sent the person back: the code for tokens at their account, kept in amo_auth (never
   * answered). The account is the callback's `referer` when it is an amoCRM host of the
   * integration's subdomain.
   */
  async amoCallback(query: {
    code?: string
    state?: string
    referer?: string
    error?: string
  }): Promise<CallbackResult> {
    const end = (outcome: AmoOauthOutcome, integrationId: number | null = null) => ({
      outcome,
      integrationId,
    })
    if (!query.state) return end('bad_state')
    const id = await takeOauthState(this.db, query.state)
    if (id === null) return end('bad_state')
    if (query.error || !query.code) return end('denied', id)
    const target = await loadAmo(this.db, id)
    if (!target) return end('bad_state')
    let host = `${target.subdomain}.amocrm.ru`
    const referer = (query.referer ?? '').trim().toLowerCase()
    if (referer) {
      if (!AMO_HOST.test(referer) || referer.split('.')[0] !== target.subdomain) {
        return end('other_account', id)
      }
      host = referer
    }
    const tokens = await this.queue.amoChannel.exchange(
      target,
      host,
      query.code,
      this.redirectUri(target.redirect_uri),
      this.queue.plainCall,
    )
    if ('ok' in tokens) return end('refused', id)
    await storeConnected(this.db, id, host, tokens)
    // Its waiting deliveries may go now.
    await this.db.query(
      `UPDATE appeal_deliveries SET next_attempt_at = now(), give_up_at = NULL
       WHERE integration_kind = 'amo' AND integration_id = $1 AND state = 'queued'`,
      [id],
    )
    this.queue.wake()
    return end('connected', id)
  }
}
