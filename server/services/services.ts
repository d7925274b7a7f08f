import type { Database } from '../db/database.ts'
import type { UploadStorage } from '../uploads/storage.ts'
import type { Logger } from '../common/log.ts'
import { AppealService, type AppealSettings } from './appeals.ts'
import { AuthService } from './auth.ts'
import { BackgroundTasks } from './background.ts'
import { BlockService } from './blocks.ts'
import { ChangeFeed } from './changes.ts'
import { DeliveryQueue, type DeliverySettings } from './delivery.ts'
import { EventHub, type EventSettings } from './events.ts'
import { IntegrationService } from './integrations.ts'
import { sessionCacheFor } from './session-cache.ts'
import { ProjectService } from './projects.ts'
import { PageService, PublicOrigin } from './pages.ts'
import { FormTokens } from './form-tokens.ts'
import { ImageVariants } from '../uploads/variants.ts'
import { RecordService } from './records.ts'
import { DEFAULT_THROTTLE, Throttle, type ThrottleSettings } from './throttle.ts'
import { UploadService, type UploadLimits } from './uploads.ts'
import { WorkQueue } from './work-queue.ts'
import { WorkspaceService } from './workspaces.ts'

export interface ServiceSettings {
  tokenTtlDays: number
  /** The limits of sign-in, registration and password reset; DEFAULT_THROTTLE where left out. */
  throttle?: Partial<ThrottleSettings>
  /** The clock of the limits (tests move it by hand). Default Date.now. */
  now?: () => number
  /** Password hashes computed at once (default 2); up to 64 more wait, beyond that 429. */
  hashConcurrency?: number
  uploadLimits: UploadLimits
  /** Default 15 s. */
  idempotencyWaitMs?: number
  /** How long a token's user is kept in memory (default 60 s; 0: asked every time). */
  sessionCacheMs?: number
  /** Live change streams: ping interval and how long events are kept. */
  events?: EventSettings
  /** Where the public pages are seen from (PUBLIC_URL); default: the server's own address. */
  publicUrl?: string
  /** The delivery queue of visitors' requests (docs/crm.md). */
  delivery?: DeliverySettings
  /** Visitors' requests: test hooks. */
  appeals?: AppealSettings
  /** Where the delivery queue reports (no personal data). */
  log?: Logger
}

/** Every service of one app instance, wired to one database and one upload storage. */
export interface Services {
  db: Database
  auth: AuthService
  workspaces: WorkspaceService
  records: RecordService
  projects: ProjectService
  /** Published pages (docs/publishing.md). */
  pages: PageService
  /** Resized copies of uploaded images for published pages. */
  variants: ImageVariants
  /** The published pages' form tokens (docs/requests.md). */
  formTokens: FormTokens
  blocks: BlockService
  uploads: UploadService
  uploadStorage: UploadStorage
  /** Per process: instances behind a load balancer each count on their own. */
  throttle: Throttle
  /** How long a repeat waits for the first request with its Idempotency-Key to finish. */
  idempotencyWaitMs: number
  /** Work done after the answer (reset links). */
  background: BackgroundTasks
  /** The open streams of GET /api/events of this instance. */
  events: EventHub
  /** The instance's one subscription to the announcements of changes. */
  changes: ChangeFeed
  /** Visitors' requests (docs/API.md, "Requests"). */
  appeals: AppealService
  /** The queue that delivers them to the CRMs (docs/crm.md); started by the app. */
  deliveries: DeliveryQueue
  /** The integrations' state, «Проверить», amoCRM's OAuth. */
  integrations: IntegrationService
}

export function createServices(
  db: Database,
  uploadStorage: UploadStorage,
  settings: ServiceSettings,
): Services {
  const uploads = new UploadService(db, settings.uploadLimits)
  // One listening connection for the live change streams and the lists kept in memory.
  const changes = new ChangeFeed(db)
  const background = new BackgroundTasks()
  const variants = new ImageVariants(uploadStorage)
  const origin = new PublicOrigin(settings.publicUrl?.replace(/\/+$/, '') ?? null)
  const deliveries = new DeliveryQueue(db, settings.delivery, settings.log)
  return {
    db,
    auth: new AuthService(db, {
      tokenTtlDays: settings.tokenTtlDays,
      hashing: new WorkQueue(settings.hashConcurrency ?? 2, 64),
      sessions: sessionCacheFor(db, settings.sessionCacheMs ?? 60_000),
    }),
    workspaces: new WorkspaceService(db),
    records: new RecordService(db, changes),
    projects: new ProjectService(db, uploads, origin),
    pages: new PageService(db, origin, variants, background),
    variants,
    formTokens: new FormTokens(db, settings.now),
    blocks: new BlockService(db),
    uploads,
    uploadStorage,
    throttle: new Throttle({ ...DEFAULT_THROTTLE, ...settings.throttle }, settings.now ?? Date.now),
    idempotencyWaitMs: settings.idempotencyWaitMs ?? 15_000,
    background,
    events: new EventHub(db, changes, settings.events),
    changes,
    appeals: new AppealService(db, deliveries, settings.appeals),
    deliveries,
    integrations: new IntegrationService(db, deliveries, origin),
  }
}
