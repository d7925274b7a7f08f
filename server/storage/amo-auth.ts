import type { Queryable } from '../db/database.ts'

/**
 * An amoCRM integration as delivery needs it: its settings and its OAuth tokens (amo_auth, kept
 * apart from the record so that a refresh moves neither its version nor its list). Tokens never
 * leave the server.
 */
export interface AmoTarget {
  id: number
  workspace_id: number
  version: number
  enabled: boolean
  subdomain: string
  client_id: string
  client_secret: string
  redirect_uri: string
  long_lived_token: string
  /** The account's host from the OAuth callback's `referer` ('' until connected). */
  api_host: string
  access_token: string | null
  refresh_token: string | null
  /** Epoch milliseconds. */
  expires_at: number | null
  failed_version: number | null
}

/** An AmoTarget's columns, of `amo_integrations i LEFT JOIN amo_auth a` (also in deliveries.ts). */
export const AMO_TARGET_COLUMNS = `i.id, i.workspace_id, i.version, i.enabled, i.subdomain,
  i.client_id, i.client_secret, i.redirect_uri, i.long_lived_token,
  COALESCE(a.api_host, '') AS api_host, a.access_token, a.refresh_token,
  (EXTRACT(EPOCH FROM a.expires_at) * 1000)::float8 AS expires_at, a.failed_version`

export async function loadAmo(db: Queryable, id: number): Promise<AmoTarget | null> {
  const { rows } = await db.query<AmoTarget & { expires_at: string | null }>(
    `SELECT ${AMO_TARGET_COLUMNS}
     FROM amo_integrations i LEFT JOIN amo_auth a ON a.integration_id = i.id
     WHERE i.id = $1`,
    [id],
  )
  const row = rows[0]
  if (!row) return null
  return { ...row, expires_at: row.expires_at === null ? null : Number(row.expires_at) }
}

/**
 * Takes the right to refresh the tokens for `leaseMs`, if nobody holds it and the refresh token is
 * still `seen` (another instance may have refreshed meanwhile): only one refresh at a time, as
 * amoCRM spends a refresh token when it answers.
 */
export async function claimRefresh(
  db: Queryable,
  id: number,
  seen: string,
  lease: string,
  leaseMs: number,
): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE amo_auth SET refresh_lease = $3,
       refresh_lease_until = clock_timestamp() + make_interval(secs => $4)
     WHERE integration_id = $1 AND refresh_token = $2
       AND (refresh_lease_until IS NULL OR refresh_lease_until < clock_timestamp())
     RETURNING 1`,
    [id, seen, lease, leaseMs / 1000],
  )
  return rows.length > 0
}

export async function releaseRefresh(db: Queryable, id: number, lease: string): Promise<void> {
  await db.query(
    `UPDATE amo_auth SET refresh_lease = NULL, refresh_lease_until = NULL
     WHERE integration_id = $1 AND refresh_lease = $2`,
    [id, lease],
  )
}

export interface Tokens {
  access_token: string
  refresh_token: string
  expires_in: number
}

/** Keeps a refresh's tokens, when `lease` still holds the right to (a refresh under way). */
export async function storeRefreshed(
  db: Queryable,
  id: number,
  lease: string,
  tokens: Tokens,
): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE amo_auth SET access_token = $3, refresh_token = $4,
       expires_at = clock_timestamp() + make_interval(secs => $5),
       refresh_lease = NULL, refresh_lease_until = NULL, failed_version = NULL
     WHERE integration_id = $1 AND refresh_lease = $2
     RETURNING 1`,
    [id, lease, tokens.access_token, tokens.refresh_token, tokens.expires_in],
  )
  return rows.length > 0
}

/** A new connection (the OAuth callback): its tokens replace whatever there was. */
export async function storeConnected(
  db: Queryable,
  id: number,
  host: string,
  tokens: Tokens,
): Promise<void> {
  await db.query(
    `INSERT INTO amo_auth (integration_id, api_host, access_token, refresh_token, expires_at,
       connected_at)
     VALUES ($1, $2, $3, $4, clock_timestamp() + make_interval(secs => $5), clock_timestamp())
     ON CONFLICT (integration_id) DO UPDATE SET api_host = $2, access_token = $3,
       refresh_token = $4, expires_at = clock_timestamp() + make_interval(secs => $5),
       connected_at = clock_timestamp(), failed_version = NULL, refresh_lease = NULL,
       refresh_lease_until = NULL, oauth_state = NULL, oauth_state_until = NULL`,
    [id, host, tokens.access_token, tokens.refresh_token, tokens.expires_in],
  )
}

/**
 * amoCRM refused the integration's token (a refused refresh, a long-lived token answered 401):
 * its deliveries wait (server/storage/deliveries.ts, claimDue) until it is connected again or
 * edited (its version moves).
 */
export async function markFailed(db: Queryable, id: number, version: number): Promise<void> {
  await db.query(
    `INSERT INTO amo_auth (integration_id, failed_version) VALUES ($1, $2)
     ON CONFLICT (integration_id) DO UPDATE SET failed_version = $2,
       refresh_lease = NULL, refresh_lease_until = NULL`,
    [id, version],
  )
}

/** A consent link's `state`, good once for `ttlMs`. */
export async function putOauthState(
  db: Queryable,
  id: number,
  state: string,
  ttlMs: number,
): Promise<void> {
  await db.query(
    `INSERT INTO amo_auth (integration_id, oauth_state, oauth_state_until)
     VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))
     ON CONFLICT (integration_id) DO UPDATE SET oauth_state = $2,
       oauth_state_until = clock_timestamp() + make_interval(secs => $3)`,
    [id, state, ttlMs / 1000],
  )
}

/** The integration a consent link's `state` was made for, spent by this call; null when unknown or old. */
export async function takeOauthState(db: Queryable, state: string): Promise<number | null> {
  const { rows } = await db.query<{ integration_id: number }>(
    `UPDATE amo_auth SET oauth_state = NULL, oauth_state_until = NULL
     WHERE oauth_state = $1 AND oauth_state_until > clock_timestamp()
     RETURNING integration_id`,
    [state],
  )
  return rows[0]?.integration_id ?? null
}
