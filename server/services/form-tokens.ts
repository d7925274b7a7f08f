import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Database } from '../db/database.ts'
import { FORM_TOKEN_TTL_SECONDS, MIN_FILL_SECONDS } from '../../src/domain/visitor-request.ts'

/**
 * What a form's token says of the request that carries it (docs/requests.md,
 * "`POST /p/{slug}/submit`", step 4).
 */
export type TokenVerdict = 'ok' | 'too_fast' | 'expired' | 'invalid'

/**
 * The signed `form_token` of a published page's forms: the second the form was served and the
 * page's slug, signed with a key all instances share (kept in the database, made once). A request
 * sent less than MIN_FILL_SECONDS after its form was served is a bot's; one older than a day asks
 * the visitor to send again.
 */
export class FormTokens {
  private key: Buffer | null = null

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  async start(): Promise<void> {
    await this.db.query(
      `INSERT INTO server_secrets (name, value) VALUES ('form_token', $1)
       ON CONFLICT (name) DO NOTHING`,
      [randomBytes(32).toString('base64')],
    )
    const { rows } = await this.db.query<{ value: string }>(
      "SELECT value FROM server_secrets WHERE name = 'form_token'",
    )
    this.key = Buffer.from(rows[0]!.value, 'base64')
  }

  private sign(slug: string, second: number): string {
    if (!this.key) throw new Error('form tokens not started')
    return createHmac('sha256', this.key).update(`${slug}.${second}`).digest('base64url')
  }

  issue(slug: string): string {
    const second = Math.floor(this.now() / 1000)
    return `${second}.${this.sign(slug, second)}`
  }

  check(token: string, slug: string): TokenVerdict {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token)
    if (!match) return 'invalid'
    const second = Number(match[1])
    const expected = Buffer.from(this.sign(slug, second))
    const given = Buffer.from(match[2]!)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid'
    const age = this.now() / 1000 - second
    if (age < MIN_FILL_SECONDS) return 'too_fast'
    if (age > FORM_TOKEN_TTL_SECONDS) return 'expired'
    return 'ok'
  }
}
