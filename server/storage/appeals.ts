import type { Queryable } from '../db/database.ts'
import type { AppealStatus, DeliveryState, DeliveryTarget } from '../../src/domain/appeal.ts'
import type { Submission } from '../published/submission.ts'
import { selectJsonRows } from './json-rows.ts'

/** A submission as the service writes it (server/services/appeals.ts, Submission). */
export interface AppealValues extends Omit<Submission, 'kind' | 'spam' | 'hook_url' | 'utm'> {
  kind: string
  utm: Record<string, string>
  status: AppealStatus
}

const ISO = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** One request to write: its values, its CRM key's salt, its spam verdict, its gift's web hook. */
export interface AppealToWrite {
  values: AppealValues
  salt: string
  spam: boolean
  hookUrl: string
}

/**
 * Writes requests and their deliveries in one statement (so in one transaction): for each, one
 * delivery per enabled amoCRM and Bitrix24 integration of its workspace, and one to the web hook
 * when `hookUrl` is set; queued, or skipped (code 'spam') for spam. Nothing is written for a
 * request whose project already has one with its submission_id (also one earlier in the same
 * call): null in its place then (its id is `findBySubmission`'s). Each id is drawn first so that
 * the CRM key can carry it (`pb-<id>-<salt>`, docs/crm.md). Several requests in one statement
 * cost the database a fraction of one statement each (docs/crm.md, "Requests written together").
 */
export async function insertAppealsWithDeliveries(
  db: Queryable,
  requests: readonly AppealToWrite[],
): Promise<(number | null)[]> {
  if (requests.length === 0) return []
  const input = requests.map(({ values, salt, spam, hookUrl }, ord) => ({
    ...values,
    ord,
    salt,
    spam,
    hook_url: hookUrl,
  }))
  const { rows } = await db.query<{ ord: number; id: number | null }>(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(ord int, workspace_id int,
         project_id int, block_id int, kind text, name text, phone text, email text,
         comment text, specialist_id int, date text, price float8, utm jsonb, referrer text,
         page_url text, project_name text, submission_id text, ip text, user_agent text,
         status text, salt text, hook_url text, spam boolean)
     ), drawn AS (
       SELECT input.*, nextval(pg_get_serial_sequence('appeals', 'id'))::int AS n
       FROM input ORDER BY ord
     ), appeal AS (
       INSERT INTO appeals (id, workspace_id, project_id, block_id, kind, name, phone, email,
         comment, specialist_id, date, price, utm, referrer, page_url, project_name,
         submission_id, ip, user_agent, status, crm_key)
       SELECT n, workspace_id, project_id, block_id, kind, name, phone, email, comment,
         specialist_id, date, price, utm, referrer, page_url, project_name, submission_id, ip,
         user_agent, status, 'pb-' || n || '-' || salt
       FROM drawn ORDER BY ord
       ON CONFLICT (project_id, submission_id) DO NOTHING
       RETURNING id
     ), targets AS (
       SELECT 'amo' AS kind, id, workspace_id FROM amo_integrations
         WHERE enabled AND workspace_id IN (SELECT workspace_id FROM input)
       UNION ALL
       SELECT 'bitrix', id, workspace_id FROM bitrix_integrations
         WHERE enabled AND workspace_id IN (SELECT workspace_id FROM input)
     ), deliveries AS (
       INSERT INTO appeal_deliveries (appeal_id, integration_kind, integration_id, hook_url,
         state, error_code)
       SELECT appeal_id, kind, integration_id, url,
         CASE WHEN spam THEN 'skipped' ELSE 'queued' END, CASE WHEN spam THEN 'spam' ELSE '' END
       FROM (
         SELECT a.id AS appeal_id, t.kind, t.id AS integration_id, '' AS url, d.spam
         FROM appeal a JOIN drawn d ON d.n = a.id JOIN targets t ON t.workspace_id = d.workspace_id
         UNION ALL
         SELECT a.id, 'hook', NULL, d.hook_url, d.spam
         FROM appeal a JOIN drawn d ON d.n = a.id WHERE d.hook_url <> ''
       ) planned
       ORDER BY appeal_id, kind, integration_id
       RETURNING 1
     )
     SELECT d.ord, a.id, (SELECT count(*) FROM deliveries) AS deliveries
     FROM drawn d LEFT JOIN appeal a ON a.id = d.n ORDER BY d.ord`,
    [JSON.stringify(input)],
  )
  const ids: (number | null)[] = requests.map(() => null)
  for (const row of rows) ids[row.ord] = row.id
  return ids
}

export async function findBySubmission(
  db: Queryable,
  projectId: number,
  submissionId: string,
): Promise<{ id: number; phone: string } | null> {
  const { rows } = await db.query<{ id: number; phone: string }>(
    'SELECT id, phone FROM appeals WHERE project_id = $1 AND submission_id = $2',
    [projectId, submissionId],
  )
  return rows[0] ?? null
}

/** A delivery as stored, before its error is put into words (server/services/appeals.ts). */
export interface DeliveryRow {
  integration_kind: DeliveryTarget
  integration_id: number | null
  state: DeliveryState
  crm_id: string | null
  attempts: number
  error_code: string
  error_detail: string
  next_attempt_at: string | null
}

export interface AppealRow extends Omit<
  AppealValues,
  'kind' | 'project_name' | 'submission_id' | 'ip' | 'user_agent'
> {
  id: number
  kind: Submission['kind']
  created_at: string
  version: number
  deliveries: DeliveryRow[]
}

const APPEAL_SELECT = `a.id, a.workspace_id, a.project_id, a.block_id, a.kind, a.name, a.phone,
  a.email, a.comment, a.specialist_id, a.date, a.price, a.utm, a.referrer, a.page_url, a.status,
  ${ISO('a.created_at')} AS created_at, a.version,
  (SELECT COALESCE(json_agg(json_build_object(
     'integration_kind', d.integration_kind, 'integration_id', d.integration_id,
     'state', d.state, 'crm_id', d.crm_id, 'attempts', d.attempts,
     'error_code', d.error_code, 'error_detail', d.error_detail,
     'next_attempt_at', CASE WHEN d.state = 'queued' THEN ${ISO('d.next_attempt_at')} END)
     ORDER BY d.id), '[]')
   FROM appeal_deliveries d WHERE d.appeal_id = a.id) AS deliveries`

/**
 * The workspace's requests, newest first, with their deliveries, in one round trip with the
 * check that the user is a member (null when not). `before` and `limit` take a window of them.
 */
export async function listAppealsForMember(
  db: Queryable,
  workspaceId: number,
  userId: number,
  window: { before?: number; limit?: number } = {},
): Promise<AppealRow[] | null> {
  const { rows } = await db.query<{ member: boolean | null; j: string }>(
    `SELECT (SELECT true FROM workspace_members WHERE workspace_id = $1 AND user_id = $2) AS member,
       (SELECT COALESCE(json_agg(t), '[]')::text FROM (
         SELECT ${APPEAL_SELECT} FROM appeals a
         WHERE a.workspace_id = $1 AND ($3::int IS NULL OR a.id < $3)
           AND EXISTS (SELECT 1 FROM workspace_members WHERE workspace_id = $1 AND user_id = $2)
         ORDER BY a.id DESC LIMIT $4
       ) t) AS j`,
    [workspaceId, userId, window.before ?? null, window.limit ?? null],
  )
  const row = rows[0]!
  return row.member ? (JSON.parse(row.j) as AppealRow[]) : null
}

/** The request when it lies in one of the user's workspaces, with the user's role there. */
export async function findAppealForUser(
  db: Queryable,
  id: number,
  userId: number,
): Promise<(AppealRow & { role: string }) | null> {
  const rows = await selectJsonRows<AppealRow & { role: string }>(
    db,
    `SELECT ${APPEAL_SELECT}, m.role FROM appeals a
     JOIN workspace_members m ON m.workspace_id = a.workspace_id AND m.user_id = $2
     WHERE a.id = $1`,
    [id, userId],
  )
  return rows[0] ?? null
}

export async function setStatus(tx: Queryable, id: number, status: AppealStatus): Promise<void> {
  await tx.query('UPDATE appeals SET status = $2 WHERE id = $1', [id, status])
  if (status === 'spam') {
    // Spam is never delivered: what still waits is dropped (an attempt under way finds it so).
    await tx.query(
      `UPDATE appeal_deliveries SET state = 'skipped', error_code = 'spam', error_detail = ''
       WHERE appeal_id = $1 AND state = 'queued'`,
      [id],
    )
  } else {
    // A request taken for spam by mistake goes to the CRMs after all.
    await tx.query(
      `UPDATE appeal_deliveries SET state = 'queued', error_code = '', error_detail = '',
         next_attempt_at = now(), give_up_at = NULL
       WHERE appeal_id = $1 AND state = 'skipped' AND error_code = 'spam'`,
      [id],
    )
  }
}

/** `appeal/retry`: failed deliveries (and skipped ones of a request that is not spam) again. */
export async function requeueDeliveries(tx: Queryable, id: number): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    `WITH q AS (
       UPDATE appeal_deliveries d SET state = 'queued', next_attempt_at = now(), give_up_at = NULL
       FROM appeals a
       WHERE d.appeal_id = $1 AND a.id = d.appeal_id AND a.status <> 'spam'
         AND d.state IN ('failed', 'skipped')
       RETURNING 1)
     SELECT count(*)::int AS n FROM q`,
    [id],
  )
  return rows[0]!.n
}

export async function deleteAppeal(tx: Queryable, id: number): Promise<void> {
  await tx.query('DELETE FROM appeals WHERE id = $1', [id])
}
