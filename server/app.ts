import type { IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { AnalyticsCounter } from './analytics/counter.ts'
import { analyticsApiRoutes, beaconRoute, visitOf } from './analytics/routes.ts'
import { appealCounts, type SubmissionCounts } from './analytics/summary.ts'
import { ERROR_CODES } from '../src/domain/api-error.ts'
import { openDatabase, type Database } from './db/database.ts'
import type { AppEnv } from './http/env.ts'
import { badRequest, errorResponse, routeNotFound, tooLarge } from './http/errors.ts'
import { jsonLogger, silentLogger, type Logger } from './common/log.ts'
import { requestLog } from './http/middleware.ts'
import { authRoutes } from './http/routes/auth.ts'
import { eventRoutes } from './http/routes/events.ts'
import { projectRoutes } from './http/routes/projects.ts'
import { pageApiRoutes } from './http/routes/pages.ts'
import { pageRoutes } from './published/page-route.ts'
import { submitRoutes, type RequestLimits } from './published/submit-route.ts'
import type { SubmissionSink } from './published/submission.ts'
import { defaultRendererSource, loadRenderer, type RendererSource } from './published/renderer.ts'
import { recordRoutes } from './http/routes/records.ts'
import { workspaceRoutes } from './http/routes/workspaces.ts'
import { appCsp, securityHeaders } from './http/security.ts'
import { inlineScriptHashes, staticSite } from './http/static.ts'
import { serveUpload } from './http/uploads.ts'
import { seedDemo, type SeedResult } from './seed.ts'
import type { AppealSettings } from './services/appeals.ts'
import type { DeliverySettings } from './services/delivery.ts'
import { appealRoutes } from './http/routes/appeals.ts'
import { AppError } from './services/errors.ts'
import { createServices, type Services } from './services/services.ts'
import {
  DEFAULT_THROTTLE,
  Throttled,
  type BackoffRule,
  type ThrottleSettings,
} from './services/throttle.ts'
import { pruneKeys } from './storage/idempotency.ts'
import { pruneReservations } from './storage/uploads.ts'
import { S3UploadStorage, type S3Settings } from './uploads/s3-storage.ts'
import { DiskUploadStorage, MemoryUploadStorage, type UploadStorage } from './uploads/storage.ts'
import { RESERVATION_TTL_MS, sweepUploads } from './uploads/sweep.ts'
import { parseVariant } from './uploads/variants.ts'
import { bodyLimit, drainUnreadBody } from './http/body-limit.ts'
import { compression } from './http/compression.ts'
import { FRAMING_BYTES } from './http/upload-body.ts'

export interface AppOptions {
  /** PGlite directory (default ./data), or 'memory' for a throwaway database. */
  dataDir?: string
  /** PostgreSQL connection string; takes precedence over dataDir for the database. */
  databaseUrl?: string
  /** PostgreSQL schema (tests give each file its own). */
  schema?: string
  /** An already open database (several app instances over one database). */
  db?: Database
  /** PGlite's thread stopped while open (server/db/database.ts, `onFailure`). */
  onDatabaseFailure?: (error: Error) => void
  /** Built PWA to serve (e.g. 'dist'); without it only /api and /uploads are served. */
  staticDir?: string
  /** Seed the demo accounts and workspace when the database has no users. Default false. */
  seed?: boolean
  /** true: JSON lines on stdout; a function: receives each entry; default: silent. */
  log?: boolean | Logger
  /**
   * Where uploads go; default DATA_DIR/uploads on disk, or memory when dataDir is 'memory'; an
   * S3-compatible bucket with `s3` (server/README.md, "Several instances behind a load balancer").
   */
  uploads?: UploadStorage
  s3?: S3Settings
  /** Largest image upload (default 10 MB). */
  uploadMaxBytes?: number
  /** Largest video upload on `image/upload` (default 100 MB). */
  videoUploadMaxBytes?: number
  /** What one user's uploaded files may take in all (default 1 GB; 0: no limit). */
  uploadQuotaBytes?: number
  /** How often unreferenced uploads are swept (server/uploads/sweep.ts); default 6 h, 0: never. */
  uploadSweepEveryMs?: number
  tokenTtlDays?: number
  /** Limits of sign-in, registration and password reset (server/services/throttle.ts). */
  throttle?: Partial<ThrottleSettings>
  /**
   * The older setting of the sign-in limit: `attempts` failures of an account let through (from
   * one address and from elsewhere) before the waits begin. `throttle` says more.
   */
  loginLimit?: { attempts: number; windowMs: number }
  /** The clock of those limits; tests move it by hand. Default Date.now. */
  now?: () => number
  /** Password hashes computed at once (default 2): the rest wait their turn. */
  hashConcurrency?: number
  /**
   * How long a repeat waits for the first request with its Idempotency-Key before answering
   * `409 idempotency_pending` (default 15 s; tests shorten it).
   */
  idempotencyWaitMs?: number
  /**
   * How long a token's user is kept in memory between requests (default 60 s; 0: the database is
   * asked on every request). Sign-out, password reset and profile changes drop it at once, on
   * every instance (server/services/session-cache.ts).
   */
  sessionCacheMs?: number
  /**
   * Proxies of our own in front (true = 1): the client address for the limits is the
   * X-Forwarded-For entry that many places from the right. Default none.
   */
  trustProxy?: boolean | number
  onResetLink?: (link: string, email: string) => void
  /** How often an open event stream gets a `: ping` comment (default 15 s). */
  eventPingMs?: number
  /** How long change events are kept for resuming streams (default 24 h; docs/API.md). */
  eventKeepMs?: number
  /** Event streams open at once per token and per user (default STREAM_CAPS, services/events.ts). */
  eventStreamCaps?: { perToken?: number; perUser?: number }
  /** Where published pages are seen from (PUBLIC_URL); default: the server's own address. */
  publicUrl?: string
  /** The published pages' renderer: built (dist-page) or, under tests, from source. */
  pageRenderer?: RendererSource
  /** Where visitors' requests go (docs/requests.md); tests give their own. */
  requestSink?: SubmissionSink
  /** Limits of visitors' requests per address and per page (docs/requests.md). */
  requestLimits?: Partial<RequestLimits>
  /** How often gathered views and clicks are written (docs/analytics.md); default 1 s, 0: only by flush(). */
  analyticsFlushMs?: number
  /** Where the analytics summary's requests come from (default: the appeals table). */
  analyticsSubmissions?: SubmissionCounts
  /**
   * The delivery of visitors' requests to the CRMs (docs/crm.md): timeouts, backoff, rates, and
   * `testOrigin` (OUTBOUND_TEST_ORIGIN). `enabled: false` leaves this instance's queue stopped.
   */
  delivery?: DeliverySettings
  /** Visitors' requests: test hooks. */
  appeals?: AppealSettings
}

export type ApiApp = Hono<AppEnv> & {
  /** Resolves when the database is open, migrated and (if asked) seeded. */
  ready(): Promise<AppReady>
  /** Closes the database (unless it was passed in). */
  close(): Promise<void>
  /** Views and clicks of published pages gathered and written in batches (docs/analytics.md). */
  analytics: AnalyticsCounter
}

export interface AppReady {
  services: Services
  seeded: SeedResult | null
}

export const JSON_MAX_BYTES = 1024 * 1024
export const DEFAULT_UPLOAD_MAX_BYTES = 10 * 1024 * 1024
export const DEFAULT_VIDEO_UPLOAD_MAX_BYTES = 100 * 1024 * 1024
export const DEFAULT_UPLOAD_QUOTA_BYTES = 1024 * 1024 * 1024

function throttleSettings(options: AppOptions): Partial<ThrottleSettings> | undefined {
  const legacy = options.loginLimit
  if (!legacy) return options.throttle
  const rule = (base: BackoffRule) => ({
    ...base,
    free: legacy.attempts,
    forgetMs: legacy.windowMs,
  })
  return {
    accountAtAddress: rule(DEFAULT_THROTTLE.accountAtAddress),
    account: rule(DEFAULT_THROTTLE.account),
    ...options.throttle,
  }
}

/** The logger `log` asks for: a function as given, true for JSON lines on stdout, else silence. */
export function resolveLogger(log: AppOptions['log']): Logger {
  if (typeof log === 'function') return log
  return log ? jsonLogger : silentLogger
}

/**
 * Whether `error` is the request's own body failing: Node's request stream destroyed, by a body it
 * cannot parse (broken chunk framing) or by the connection closing before the body was whole.
 */
function bodyBrokeOff(error: Error, incoming: IncomingMessage | undefined): boolean {
  const broken = incoming?.errored
  if (!broken) return false
  return error === broken || (error as NodeJS.ErrnoException).code === 'ECONNRESET'
}

/** The Hono app of the reference API (and, with staticDir, the PWA). Tests call `app.request`. */
export function createApp(options: AppOptions = {}): ApiApp {
  const log = resolveLogger(options.log)
  const uploadMaxBytes = options.uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES
  const videoUploadMaxBytes = options.videoUploadMaxBytes ?? DEFAULT_VIDEO_UPLOAD_MAX_BYTES
  // image/upload takes images and videos: its body may be as large as the larger of the two.
  const mediaMaxBytes = Math.max(uploadMaxBytes, videoUploadMaxBytes)
  const dataDir = options.dataDir ?? './data'
  const uploadStorage =
    options.uploads ??
    (options.s3
      ? new S3UploadStorage(
          options.s3,
          dataDir === 'memory'
            ? join(tmpdir(), `promo-uploading-${process.pid}`)
            : join(dataDir, 'uploading'),
        )
      : dataDir === 'memory'
        ? new MemoryUploadStorage()
        : new DiskUploadStorage(join(dataDir, 'uploads')))

  const analytics = new AnalyticsCounter(async () => (await init).services.db, {
    flushEveryMs: options.analyticsFlushMs,
    now: options.now,
    log,
  })
  let sweepTimer: ReturnType<typeof setInterval> | undefined
  let pruneTimer: ReturnType<typeof setInterval> | undefined
  const init: Promise<AppReady> = (async () => {
    const db =
      options.db ??
      (await openDatabase({
        dataDir,
        databaseUrl: options.databaseUrl,
        schema: options.schema,
        onFailure: options.onDatabaseFailure,
      }))
    const services = createServices(db, uploadStorage, {
      tokenTtlDays: options.tokenTtlDays ?? 30,
      throttle: throttleSettings(options),
      now: options.now,
      hashConcurrency: options.hashConcurrency,
      uploadLimits: {
        imageMaxBytes: uploadMaxBytes,
        videoMaxBytes: videoUploadMaxBytes,
        userQuotaBytes: options.uploadQuotaBytes ?? DEFAULT_UPLOAD_QUOTA_BYTES,
      },
      idempotencyWaitMs: options.idempotencyWaitMs,
      sessionCacheMs: options.sessionCacheMs,
      events: {
        pingMs: options.eventPingMs,
        keepMs: options.eventKeepMs,
        caps: options.eventStreamCaps,
      },
      publicUrl: options.publicUrl,
      delivery: options.delivery,
      appeals: options.appeals,
      log,
    })
    await services.auth.start()
    await services.formTokens.start()
    const seeded = options.seed ? await seedDemo(db, uploadStorage) : null
    await pruneKeys(db, 30).catch(() => undefined)
    // Quota reservations a process that died left behind: lapsed already, deleted now.
    await pruneReservations(db, RESERVATION_TTL_MS).catch(() => undefined)
    // Change events older than they are kept go now and every hour (docs/API.md, "Live changes").
    const pruneEvents = () => services.events.prune().catch(() => undefined)
    await pruneEvents()
    pruneTimer = setInterval(() => void pruneEvents(), 3_600_000)
    pruneTimer.unref()
    // Visitors' requests go to the CRMs from every instance (docs/crm.md, "The queue").
    if (options.delivery?.enabled !== false) services.deliveries.start()
    const sweepEvery = options.uploadSweepEveryMs ?? 6 * 3_600_000
    if (sweepEvery > 0) {
      const sweep = () =>
        services.background.run(
          async () => {
            const removed = await sweepUploads(db, uploadStorage)
            if (removed.length > 0)
              log({ level: 'info', event: 'uploads_swept', count: removed.length })
          },
          (error) =>
            log({
              level: 'error',
              event: 'uploads_sweep_failed',
              message: error instanceof Error ? error.message : String(error),
            }),
        )
      sweepTimer = setInterval(sweep, sweepEvery)
      sweepTimer.unref()
    }
    return { services, seeded }
  })()
  // Reported on first use; keeps an unhandled rejection from killing the process meanwhile.
  init.catch(() => undefined)

  let csp = appCsp([])
  const cspReady = options.staticDir
    ? inlineScriptHashes(options.staticDir).then((hashes) => {
        csp = appCsp(hashes)
      })
    : Promise.resolve()

  const app = new Hono<AppEnv>()

  app.onError((error, c) => {
    if (error instanceof AppError) return errorResponse(error)
    // The request's body broke off: Node refused its framing (and has answered 400 itself,
    // server/start.ts) or the client went away. The client's failure, not the server's: logged
    // as the 400 it is (docs/API.md, "Errors"), and nobody reads this answer.
    if (bodyBrokeOff(error, c.env?.incoming)) return errorResponse(badRequest())
    if (error instanceof Throttled) {
      return errorResponse(new AppError(429, ERROR_CODES.rateLimited, error.messageKey), {
        'Retry-After': String(error.retryAfterSeconds),
      })
    }
    log({
      level: 'error',
      method: c.req.method,
      path: c.req.path,
      error: error.name,
      message: error.message,
      stack: error.stack,
    })
    return errorResponse(new AppError(500, ERROR_CODES.server, 'server'))
  })

  app.use('*', requestLog(log))
  app.use('*', drainUnreadBody())
  app.use('*', async (_c, next) => {
    await cspReady
    await next()
  })
  app.use(
    '*',
    securityHeaders(() => csp),
  )
  app.use('*', compression())

  app.use('/api/*', async (c, next) => {
    c.set('services', (await init).services)
    await next()
  })
  // Uploads are read by their routes as they stream (server/http/upload-body.ts), held there to
  // the limit of the kind their first bytes show and to the quota; here only a declared length
  // beyond any upload is refused. Every other body is JSON of at most 1 MB.
  const uploadLimit = (maxBytes: number) =>
    bodyLimit({
      maxSize: maxBytes + FRAMING_BYTES,
      onError: () => errorResponse(tooLarge('upload_too_large')),
      streamed: true,
    })
  const imageLimit = uploadLimit(uploadMaxBytes)
  const mediaLimit = uploadLimit(mediaMaxBytes)
  const jsonLimit = bodyLimit({
    maxSize: JSON_MAX_BYTES,
    onError: () => errorResponse(tooLarge()),
  })
  app.use('/api/*', (c, next) =>
    c.req.path === '/api/image/upload'
      ? mediaLimit(c, next)
      : c.req.path === '/api/project/add_bg'
        ? imageLimit(c, next)
        : jsonLimit(c, next),
  )

  const api = new Hono<AppEnv>()
  authRoutes(api, {
    log,
    onResetLink: options.onResetLink,
    trustedProxies: Number(options.trustProxy ?? 0),
  })
  workspaceRoutes(api)
  eventRoutes(api)
  recordRoutes(api)
  projectRoutes(api)
  pageApiRoutes(api)
  analyticsApiRoutes(api, options.analyticsSubmissions ?? appealCounts)
  appealRoutes(api)
  app.route('/api', api)
  app.all('/api/*', () => {
    throw routeNotFound()
  })

  app.get('/uploads/:name', async (c) => {
    const { services } = await init
    // A published page's resized copy of an image is made on its first request when the background
    // work after the publish has not made it yet (docs/publishing.md, "Rendering on the server").
    const name = c.req.param('name')
    if (parseVariant(name) && (await services.uploadStorage.size(name)) === null) {
      await services.variants.ensure(name).catch(() => false)
    }
    return serveUpload(c, services.uploadStorage)
  })
  app.all('/uploads/*', (c) => c.text('Not found', 404))

  // Published pages (docs/publishing.md): public, rendered from the app's own block components.
  const renderer = loadRenderer(options.pageRenderer ?? defaultRendererSource()).catch(
    (error: unknown) => {
      log({ level: 'error', event: 'page_renderer_failed', message: String(error) })
      return null
    },
  )
  const trustedProxies = Number(options.trustProxy ?? 0)
  const pagesRoute = pageRoutes(
    app,
    async () => (await init).services,
    renderer,
    (c, project) => {
      const visit = visitOf(c, trustedProxies)
      if (visit) analytics.view(project, visit)
    },
  )
  beaconRoute(app, async () => (await init).services, analytics, trustedProxies)
  void init
    .then(({ services }) => (services.pages.onChange = () => pagesRoute.forget()))
    .catch(() => undefined)
  submitRoutes(
    app,
    pagesRoute,
    async () => (await init).services,
    // The store and its CRM deliveries (server/services/appeals.ts), unless a test gives its own.
    async () => options.requestSink ?? (await init).services.appeals,
    {
      limits: options.requestLimits,
      trustedProxies: Number(options.trustProxy ?? 0),
      now: options.now,
    },
  )

  const site = options.staticDir ? staticSite(options.staticDir) : null
  app.get('*', async (c) => {
    const response = site ? await site(c) : null
    return response ?? c.text('Not found', 404)
  })

  return Object.assign(app, {
    ready: () => init,
    analytics,
    async close() {
      clearInterval(sweepTimer)
      clearInterval(pruneTimer)
      const { services } = await init.catch(() => ({ services: null }))
      // Open event streams end: they would keep the server (and the database) from stopping.
      services?.events.close()
      // The views and clicks gathered are written before the database closes.
      if (services) await analytics.close()
      // Deliveries under way finish (a wait for a rate ends at once, the delivery handed back).
      await services?.deliveries.stop()
      await services?.background.idle()
      if (services && !options.db) await services.db.close()
    },
  })
}
