import { randomBytes } from 'node:crypto'
import type { Queryable } from '../db/database.ts'
import type { AppealForDelivery } from '../crm/types.ts'
import type { BitrixTarget } from '../crm/bitrix.ts'
import { AMO_TARGET_COLUMNS, type AmoTarget } from './amo-auth.ts'

/**
 * The delivery queue's SQL (docs/crm.md, "The queue"). A delivery is claimed for a lease: the
 * claim marks it `unsure` before anything is sent, so that if this process stops at any moment,
 * whoever claims it after the lease looks the request up in the CRM before sending it again.
 * Every write after the claim names the lease's token: a process that lost its lease changes
 * nothing.
 */

export interface ClaimedDelivery {
  id: number
  appeal_id: number
  integration_kind: 'amo' | 'bitrix' | 'hook'
  integration_id: number | null
  hook_url: string
  attempts: number
  /** An earlier attempt may have reached the CRM: look the request up before sending. */
  was_unsure: boolean
  /** The request as the CRMs are sent it (null when it is gone). */
  appeal: (AppealForDelivery & { status: string }) | null
  /** Its integration as it is now (null for the hook, or when it is gone). */
  amo: AmoTarget | null
  bitrix: BitrixTarget | null
  /** The workspace's hook secret, for the hook (null when not made yet). */
  hook_secret: string | null
}

/** The request of delivery `d` as the CRMs are sent it, as JSON (one scalar subquery). */
const APPEAL_CONTEXT = `(SELECT json_build_object(
    'id', a.id, 'workspace_id', a.workspace_id, 'project_id', a.project_id,
    'block_id', a.block_id, 'kind', a.kind, 'name', a.name, 'phone', a.phone, 'email', a.email,
    'comment', a.comment, 'specialist_id', a.specialist_id, 'date', a.date, 'price', a.price,
    'utm', a.utm, 'referrer', a.referrer, 'page_url', a.page_url,
    'project_name', a.project_name, 'ip', a.ip, 'user_agent', a.user_agent,
    'crm_key', a.crm_key, 'status', a.status,
    'created_at', to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'specialist_name', COALESCE(s.name, ''), 'specialist_position', COALESCE(s.position, ''),
    'block_text', COALESCE(b.data->>'text', ''))
  FROM appeals a
  LEFT JOIN specialists s ON s.id = a.specialist_id AND s.workspace_id = a.workspace_id
  LEFT JOIN blocks b ON b.id = a.block_id
  WHERE a.id = d.appeal_id)`

/**
 * Claims up to `limit` due deliveries nobody holds, for `leaseMs`, each with what sending it needs
 * (its request, its integration, the hook secret): one statement. Several instances at once never
 * claim the same one (FOR UPDATE SKIP LOCKED, then the lease). The deliveries of an amoCRM
 * integration that cannot be called (not connected, or its token refused since its last edit)
 * wait; those of a disabled or deleted integration are claimed, to be skipped.
 */
export async function claimDue(
  db: Queryable,
  limit: number,
  token: string,
  leaseMs: number,
  giveUpMs: number,
): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<
    Omit<ClaimedDelivery, 'appeal' | 'amo' | 'bitrix'> & {
      appeal: string | null
      amo: string | null
      bitrix: string | null
    }
  >(
    `WITH due AS (
       SELECT d.id, d.unsure FROM appeal_deliveries d
       WHERE d.state = 'queued' AND d.next_attempt_at <= clock_timestamp()
         AND (d.lease_until IS NULL OR d.lease_until < clock_timestamp())
         AND NOT EXISTS (
           SELECT 1 FROM amo_integrations i LEFT JOIN amo_auth a ON a.integration_id = i.id
           WHERE d.integration_kind = 'amo' AND i.id = d.integration_id AND i.enabled
             AND ((i.long_lived_token = '' AND a.refresh_token IS NULL)
               OR a.failed_version = i.version))
       ORDER BY d.next_attempt_at, d.id
       LIMIT $1
       FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE appeal_deliveries d SET lease_token = $2,
       lease_until = clock_timestamp() + make_interval(secs => $3),
       unsure = true,
       give_up_at = COALESCE(d.give_up_at, clock_timestamp() + make_interval(secs => $4))
     FROM due WHERE d.id = due.id
     RETURNING d.id, d.appeal_id, d.integration_kind, d.integration_id, d.hook_url, d.attempts,
       due.unsure AS was_unsure,
       ${APPEAL_CONTEXT}::text AS appeal,
       CASE WHEN d.integration_kind = 'amo' THEN (SELECT row_to_json(t)::text FROM (
         SELECT ${AMO_TARGET_COLUMNS}
         FROM amo_integrations i LEFT JOIN amo_auth a ON a.integration_id = i.id
         WHERE i.id = d.integration_id) t) END AS amo,
       CASE WHEN d.integration_kind = 'bitrix' THEN (SELECT row_to_json(t)::text FROM (
         SELECT id, workspace_id, enabled, webhook_url FROM bitrix_integrations
         WHERE id = d.integration_id) t) END AS bitrix,
       CASE WHEN d.integration_kind = 'hook' THEN (SELECT h.secret FROM hook_secrets h
         JOIN appeals a ON a.workspace_id = h.workspace_id WHERE a.id = d.appeal_id) END
         AS hook_secret`,
    [limit, token, leaseMs / 1000, giveUpMs / 1000],
  )
  return rows.map((row) => {
    const appeal = row.appeal
      ? (JSON.parse(row.appeal) as AppealForDelivery & { status: string })
      : null
    const amo = row.amo ? (JSON.parse(row.amo) as AmoTarget) : null
    return {
      ...row,
      appeal: appeal && { ...appeal, price: appeal.price === null ? null : Number(appeal.price) },
      amo: amo && { ...amo, expires_at: amo.expires_at === null ? null : Number(amo.expires_at) },
      bitrix: row.bitrix ? (JSON.parse(row.bitrix) as BitrixTarget) : null,
    }
  })
}

/** When the next delivery falls due (ms from now), or null when none waits. */
export async function nextDueInMs(db: Queryable): Promise<number | null> {
  const { rows } = await db.query<{ ms: number | null }>(
    `SELECT (EXTRACT(EPOCH FROM (min(next_attempt_at) - clock_timestamp())) * 1000)::float8 AS ms
     FROM appeal_deliveries WHERE state = 'queued'`,
  )
  const ms = rows[0]?.ms
  return ms === null || ms === undefined ? null : Math.max(0, Number(ms))
}

export async function loadBitrix(db: Queryable, id: number): Promise<BitrixTarget | null> {
  const { rows } = await db.query<BitrixTarget>(
    'SELECT id, workspace_id, enabled, webhook_url FROM bitrix_integrations WHERE id = $1',
    [id],
  )
  return rows[0] ?? null
}

/** The workspace's secret for signing web hooks, made on first use. */
export async function hookSecret(db: Queryable, workspaceId: number): Promise<string> {
  const fresh = randomBytes(32).toString('hex')
  const { rows } = await db.query<{ secret: string }>(
    `WITH made AS (
       INSERT INTO hook_secrets (workspace_id, secret) VALUES ($1, $2)
       ON CONFLICT (workspace_id) DO NOTHING RETURNING secret)
     SELECT secret FROM made UNION ALL
     SELECT secret FROM hook_secrets WHERE workspace_id = $1
     LIMIT 1`,
    [workspaceId, fresh],
  )
  return rows[0]?.secret ?? fresh
}

/** How a claimed delivery ends (or is handed back). */
export type Outcome =
  | { state: 'delivered'; crmId: string | null; attempted: boolean }
  | { state: 'failed' | 'skipped'; code: string; detail: string; attempted: boolean }
  | {
      state: 'queued'
      code: string
      detail: string
      /** Counted as an attempt (false: handed back, nothing tried). */
      attempted: boolean
      delayMs: number
      unsure: boolean
    }

/** Writes the outcome if the lease is still `token`'s: false when it was lost. */
export async function finish(
  db: Queryable,
  id: number,
  token: string,
  outcome: Outcome,
): Promise<boolean> {
  const attempted = outcome.attempted ? 1 : 0
  let result: { rows: unknown[] }
  if (outcome.state === 'delivered') {
    const written = await finishDelivered(db, [{ id, token, ...outcome }])
    return written[0]!
  } else if (outcome.state === 'queued') {
    result = await db.query(
      `UPDATE appeal_deliveries SET unsure = $3, attempts = attempts + $4,
         error_code = CASE WHEN $5 = '' THEN error_code ELSE $5 END,
         error_detail = CASE WHEN $5 = '' THEN error_detail ELSE $6 END,
         next_attempt_at = clock_timestamp() + make_interval(secs => $7),
         attempted_at = CASE WHEN $4 = 1 THEN clock_timestamp() ELSE attempted_at END,
         lease_token = NULL, lease_until = NULL
       WHERE id = $1 AND lease_token = $2 RETURNING 1`,
      [id, token, outcome.unsure, attempted, outcome.code, outcome.detail, outcome.delayMs / 1000],
    )
  } else {
    result = await db.query(
      `UPDATE appeal_deliveries SET state = $3, attempts = attempts + $4, error_code = $5,
         error_detail = $6,
         attempted_at = CASE WHEN $4 = 1 THEN clock_timestamp() ELSE attempted_at END,
         lease_token = NULL, lease_until = NULL
       WHERE id = $1 AND lease_token = $2 RETURNING 1`,
      [id, token, outcome.state, attempted, outcome.code, outcome.detail],
    )
  }
  return result.rows.length > 0
}

/**
 * Writes deliveries as delivered in one statement, each only while its lease is still its token's:
 * for each, whether it was written (the queue writes the deliveries that ended while one such
 * statement was under way together in the next: docs/crm.md, "Requests written together").
 */
export async function finishDelivered(
  db: Queryable,
  done: readonly { id: number; token: string; crmId: string | null; attempted: boolean }[],
): Promise<boolean[]> {
  const { rows } = await db.query<{ id: number }>(
    `UPDATE appeal_deliveries d SET state = 'delivered', crm_id = f.crm_id, unsure = false,
       attempts = d.attempts + f.attempted, error_code = '', error_detail = '',
       attempted_at = clock_timestamp(), delivered_at = clock_timestamp(),
       lease_token = NULL, lease_until = NULL
     FROM unnest($1::int[], $2::text[], $3::text[], $4::int[]) AS f(id, token, crm_id, attempted)
     WHERE d.id = f.id AND d.lease_token = f.token
     RETURNING d.id`,
    [
      done.map((d) => d.id),
      done.map((d) => d.token),
      done.map((d) => d.crmId),
      done.map((d) => (d.attempted ? 1 : 0)),
    ],
  )
  const written = new Set(rows.map((row) => row.id))
  return done.map((d) => written.has(d.id))
}

/**
 * An amoCRM integration was found unusable: its queued deliveries get a fresh day once it works
 * again (give_up_at is set anew by their next claim).
 */
export async function waitForIntegration(db: Queryable, integrationId: number): Promise<void> {
  await db.query(
    `UPDATE appeal_deliveries SET give_up_at = NULL
     WHERE integration_kind = 'amo' AND integration_id = $1 AND state = 'queued'`,
    [integrationId],
  )
}
