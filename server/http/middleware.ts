import type { Context, MiddlewareHandler } from 'hono'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import { AppError } from '../services/errors.ts'
import { jsonText, setHeader } from './answer.ts'
import { createHash } from 'node:crypto'
import { claimKey, completeKey, releaseKey } from '../storage/idempotency.ts'
import type { AppEnv } from './env.ts'
import type { Logger } from '../common/log.ts'
import { keptFields, runAs } from '../db/actor.ts'

/** One log line per request: method, path (no query), status, duration. */
export function requestLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now()
    await next()
    log({
      level: c.res.status >= 500 ? 'error' : 'info',
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    })
  }
}

/** Bearer token → user; 401 otherwise. */
export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header('Authorization') ?? ''
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  const token = match?.[1]
  if (!token || token.length > 200) throw AppError.unauthorized()
  const user = await c.get('services').auth.authenticate(token)
  if (!user) throw AppError.unauthorized()
  c.set('user', user)
  // Its writes are stamped with the person, and a choice after a conflict names the fields kept
  // (server/db/actor.ts, docs/API.md "Conditional writes").
  await runAs({ userId: user.id, keeps: keptFields(c.req.header('Keep-Mine')) }, next)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * What a request asks — method, path, query and body — as a hash, so a repeat under the same key is
 * known to ask the same. A multipart body is hashed by its fields and files, not its bytes: every
 * try of an upload comes with a new boundary. Hono keeps the body it read for the handler.
 */
async function requestHash(c: Context<AppEnv>): Promise<string> {
  const hash = createHash('sha256').update(
    `${c.req.method} ${c.req.path}?${new URL(c.req.url).search}\n`,
  )
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  const contentType = c.req.header('Content-Type') ?? ''
  // A body that says multipart but is not (a JSON call sent with the wrong type, a broken upload)
  // is hashed by its bytes: the handler refuses it, and the same bytes ask the same.
  const form = contentType.toLowerCase().startsWith('multipart/form-data')
    ? await new Response(bytes, { headers: { 'Content-Type': contentType } })
        .formData()
        .catch(() => null)
    : null
  if (form) {
    const names = new Set<string>()
    form.forEach((_value, name) => names.add(name))
    for (const name of [...names].sort()) {
      for (const value of form.getAll(name)) {
        hash.update(`${name}=`)
        if (typeof value === 'string') hash.update(value)
        else hash.update(new Uint8Array(await value.arrayBuffer()))
        hash.update('\n')
      }
    }
  } else {
    hash.update(bytes)
  }
  return hash.digest('hex')
}

/**
 * Idempotency-Key (docs/API.md "Idempotency-Key"): the first response per (user, key) is stored
 * and returned again for a repeat. A repeat that arrives while the first still runs waits for its
 * answer; the key's primary key makes sure only one of them runs. A server fault (5xx) frees the
 * key so a retry runs again.
 */
export const idempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header('Idempotency-Key')
  if (key === undefined) return next()
  if (key.length === 0 || key.length > 200) {
    throw AppError.validation({ 'Idempotency-Key': { code: 'bad_key' } })
  }
  const db = c.get('services').db
  const userId = c.get('user').id
  const method = c.req.method
  const path = c.req.path
  const deadline = Date.now() + c.get('services').idempotencyWaitMs
  // An upload's body was hashed as it streamed (server/http/upload-body.ts): it is not read again.
  const hash = c.get('upload')?.fingerprint ?? (await requestHash(c))
  // 1. Claim the key, or find the request that claimed it first.
  for (;;) {
    const prior = await claimKey(db, userId, key, method, path, hash)
    if (!prior) break
    const asksOther =
      prior.method !== method ||
      prior.path !== path ||
      (prior.request_hash !== null && prior.request_hash !== hash)
    if (asksOther) {
      throw new AppError(422, ERROR_CODES.idempotencyMismatch, 'idempotency_mismatch')
    }
    // 2. A finished first request: answer with its stored response.
    // The same writer as a first answer (server/http/answer.ts), so the same bytes go out again:
    // a stored Response would be compressed by the streaming path whatever its size.
    if (prior.status !== null && prior.body !== null) {
      const replay = jsonText(prior.body, prior.status)
      setHeader(replay, 'Idempotent-Replayed', 'true')
      return replay
    }
    // 3. Still running elsewhere (or died with its process): wait, or take the key over.
    if (prior.stale) {
      await releaseKey(db, userId, key)
      continue
    }
    if (Date.now() > deadline) {
      // Its own code: the client waits and tries again, never gives the change up (docs/API.md).
      throw new AppError(409, ERROR_CODES.idempotencyPending, 'idempotency_pending')
    }
    await sleep(25)
  }
  // 4. Run the request and store what it answered.
  try {
    await next()
  } catch (error) {
    await releaseKey(db, userId, key)
    throw error
  }
  if (c.res.status >= 500) {
    await releaseKey(db, userId, key)
    return
  }
  // 5. Stored without waiting: the answer goes out now, one statement sooner (a client replaying
  // its outbox sends each change after the answer to the one before). A repeat that comes first
  // finds the key still running and waits for it, as it waits for a request still running; were
  // the process to stop before the answer is stored, the key is taken over once stale, as if the
  // process had stopped while the request ran (docs/API.md, "Idempotency-Key").
  const body = await c.res.clone().text()
  c.get('services').background.track(completeKey(db, userId, key, c.res.status, body), (error) =>
    console.error('An idempotency key could not store its answer', error),
  )
}
