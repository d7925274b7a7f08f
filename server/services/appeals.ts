import { randomBytes } from 'node:crypto'
import * as v from 'valibot'
import type { Database } from '../db/database.ts'
import { APPEAL_KINDS, UTM_KEYS, type Appeal, type AppealStatus } from '../../src/domain/appeal.ts'
import { FieldCode, isStorableText, LIMITS } from '../../src/domain/validation.ts'
import { Batches } from '../common/batches.ts'
import { deliveryError } from '../common/messages.ts'
import * as store from '../storage/appeals.ts'
import type { AppealRow } from '../storage/appeals.ts'
import type { Submission, SubmissionSink } from '../published/submission.ts'
import type { DeliveryQueue } from './delivery.ts'
import { AppError } from './errors.ts'
import { issuesToProblems } from './validate.ts'
import { expectVersion } from './versions.ts'

/**
 * Visitors' requests («Обращения», docs/API.md "Requests", docs/crm.md). The published page's
 * submit route hands each valid form here; the request and one delivery per enabled CRM
 * integration of the workspace (and one for the gift's web hook) are written in one transaction,
 * so a request is never kept without its deliveries, nor a delivery without its request. The same
 * submission_id of a project twice is one request. The app reads, moves and re-sends them.
 */
export type { Submission } from '../published/submission.ts'

const id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647))
const text = (max: number) =>
  v.pipe(
    v.string(FieldCode.invalidValue),
    v.check(isStorableText, FieldCode.invalidCharacters),
    v.maxLength(max, FieldCode.tooLong),
  )

/**
 * What the service takes, checked again here: the route validates the visitor's input, this
 * guards the table (a malformed phone or an unknown kind is never stored).
 */
const SubmissionSchema = v.object({
  workspace_id: id,
  project_id: id,
  block_id: id,
  kind: v.picklist(APPEAL_KINDS, FieldCode.invalidChoice),
  name: v.pipe(text(LIMITS.name), v.nonEmpty(FieldCode.required)),
  phone: v.pipe(v.string(FieldCode.invalidPhone), v.regex(/^\+7\d{10}$/, FieldCode.invalidPhone)),
  email: text(LIMITS.name),
  comment: text(LIMITS.longText),
  specialist_id: v.nullable(id),
  date: text(100),
  price: v.nullable(
    v.pipe(
      v.number(FieldCode.invalidPrice),
      v.finite(FieldCode.invalidPrice),
      v.minValue(0, FieldCode.invalidPrice),
    ),
  ),
  utm: v.pipe(
    v.record(v.string(), v.optional(text(LIMITS.shortText))),
    v.check(
      (utm) => Object.keys(utm).every((k) => (UTM_KEYS as readonly string[]).includes(k)),
      FieldCode.invalidValue,
    ),
  ),
  referrer: text(LIMITS.url),
  page_url: text(LIMITS.url),
  project_name: text(LIMITS.name),
  submission_id: v.pipe(
    v.string(FieldCode.required),
    v.minLength(1, FieldCode.required),
    v.maxLength(100, FieldCode.tooLong),
  ),
  ip: text(100),
  user_agent: text(LIMITS.shortText),
  spam: v.boolean(),
  hook_url: v.pipe(
    text(LIMITS.url),
    v.check((u) => u === '' || /^https?:\/\//i.test(u), FieldCode.invalidUrl),
  ),
})

export interface AppealSettings {
  /** Tests: called once the request is written, before the visitor is answered. */
  onStep?: (step: 'written', submission: Submission) => void | Promise<void>
}

/** Requests written in one statement at most (docs/crm.md, "Requests written together"). */
const WRITTEN_TOGETHER = 50

export class AppealService implements SubmissionSink {
  /** Requests that arrive while others are being written go together in the next statement. */
  private readonly writes: Batches<store.AppealToWrite, number | null>

  constructor(
    private readonly db: Database,
    private readonly queue: DeliveryQueue,
    private readonly settings: AppealSettings = {},
  ) {
    // PGlite runs one statement at a time; PostgreSQL's pool takes a few at once.
    this.writes = new Batches(
      (requests) => store.insertAppealsWithDeliveries(this.db, requests),
      WRITTEN_TOGETHER,
      db.engine === 'pglite' ? 1 : 4,
    )
  }

  /**
   * Keeps a visitor's request and queues its deliveries, in one transaction. A repeat of a
   * submission_id from the same phone answers the first request's id with created=false and
   * writes nothing; from another phone it is another visitor's request.
   */
  async submit(submission: Submission): Promise<{ id: number; created: boolean }> {
    const parsed = v.safeParse(SubmissionSchema, submission)
    if (!parsed.success) throw AppError.validation(issuesToProblems(parsed.issues))
    const s = submission
    const utm: Record<string, string> = {}
    for (const key of UTM_KEYS) {
      const value = s.utm[key]
      if (value) utm[key] = value
    }
    const values: store.AppealValues = {
      workspace_id: s.workspace_id,
      project_id: s.project_id,
      block_id: s.block_id,
      kind: s.kind,
      name: s.name,
      phone: s.phone,
      email: s.email,
      comment: s.comment,
      specialist_id: s.specialist_id,
      date: s.date,
      price: s.price,
      utm,
      referrer: s.referrer,
      page_url: s.page_url,
      project_name: s.project_name,
      submission_id: s.submission_id,
      ip: s.ip,
      user_agent: s.user_agent,
      status: s.spam ? 'spam' : 'new',
    }
    const salt = randomBytes(4).readUInt32BE(0).toString(36).padStart(6, '0').slice(-6)
    // The request and its deliveries: one statement, so one transaction (with the requests that
    // arrived meanwhile). Null when the project has a request with this submission id.
    const write = (submissionId: string) =>
      this.writes.run({
        values: { ...values, submission_id: submissionId },
        salt,
        spam: s.spam,
        hookUrl: s.hook_url,
      })
    const repeatOf = async (submissionId: string) => {
      const first = await store.findBySubmission(this.db, s.project_id, submissionId)
      if (first === null) throw new Error('a repeated request was not found')
      return first
    }
    let result: { id: number; created: boolean }
    const created = await write(s.submission_id)
    if (created !== null) {
      result = { id: created, created: true }
    } else {
      const first = await repeatOf(s.submission_id)
      if (first.phone === s.phone) {
        result = { id: first.id, created: false }
      } else {
        // The same id from another phone is another visitor: a copy of the page a cache kept
        // (max-age, docs/publishing.md) carries one id to everyone who gets it, and a form sent
        // without the page's script sends it as it is (docs/requests.md, "Tokens, ids and the
        // page's cache"). Their request is their own, once per phone.
        const own = `${s.submission_id}~${s.phone}`
        const again = await write(own)
        result =
          again !== null
            ? { id: again, created: true }
            : { id: (await repeatOf(own)).id, created: false }
      }
    }
    // Tests: the process may die here, before the visitor hears the answer.
    await this.settings.onStep?.('written', submission)
    if (result.created && !s.spam) this.queue.wake()
    return result
  }

  /** A request as answered: each delivery's error in words. */
  private present(row: AppealRow): Appeal {
    return {
      id: row.id,
      workspace_id: row.workspace_id,
      project_id: row.project_id,
      block_id: row.block_id,
      kind: row.kind,
      name: row.name,
      phone: row.phone,
      email: row.email,
      comment: row.comment,
      specialist_id: row.specialist_id,
      date: row.date,
      price: row.price === null ? null : Number(row.price),
      utm: row.utm,
      referrer: row.referrer,
      page_url: row.page_url,
      status: row.status,
      created_at: row.created_at,
      version: row.version,
      deliveries: row.deliveries.map((d) => ({
        integration_kind: d.integration_kind,
        integration_id: d.integration_id,
        state: d.state,
        crm_id: d.crm_id,
        attempts: d.attempts,
        last_error: deliveryError(d.error_code, d.error_detail),
        next_attempt_at: d.next_attempt_at,
      })),
    }
  }

  /** The workspace's requests, newest first (only its members see them). */
  async list(
    userId: number,
    workspaceId: number,
    window: { before?: number; limit?: number } = {},
  ): Promise<Appeal[]> {
    const rows = await store.listAppealsForMember(this.db, workspaceId, userId, window)
    if (rows === null) throw AppError.notFound()
    return rows.map((row) => this.present(row))
  }

  private async owned(userId: number, id: number): Promise<AppealRow & { role: string }> {
    const row = await store.findAppealForUser(this.db, id, userId)
    if (!row) throw AppError.notFound()
    return row
  }

  async get(userId: number, id: number): Promise<Appeal> {
    return this.present(await this.owned(userId, id))
  }

  /** Новое → В работе → Обработано, or Спам (its waiting deliveries are dropped). If-Match aware. */
  async update(
    userId: number,
    input: { id: number; status: AppealStatus },
    expected?: number,
  ): Promise<Appeal> {
    await this.owned(userId, input.id)
    await this.db.transaction(async (tx) => {
      await expectVersion(tx, 'appeals', input.id, expected, async (q) => {
        const row = await store.findAppealForUser(q, input.id, userId)
        return row && this.present(row)
      })
      await store.setStatus(tx, input.id, input.status)
    })
    if (input.status !== 'spam') this.queue.wake()
    return this.get(userId, input.id)
  }

  /** «Повторить отправку»: the failed deliveries go again, with a fresh day of tries. */
  async retry(userId: number, id: number): Promise<Appeal> {
    await this.owned(userId, id)
    const requeued = await this.db.transaction((tx) => store.requeueDeliveries(tx, id))
    if (requeued > 0) this.queue.wake()
    return this.get(userId, id)
  }

  /** Admins only (403 for an editor). */
  async delete(userId: number, id: number, expected?: number): Promise<void> {
    const row = await this.owned(userId, id)
    if (row.role !== 'admin') throw AppError.forbidden()
    await this.db.transaction(async (tx) => {
      await expectVersion(tx, 'appeals', id, expected, async (q) => {
        const current = await store.findAppealForUser(q, id, userId)
        return current && this.present(current)
      })
      await store.deleteAppeal(tx, id)
    })
  }
}
