import { randomBytes } from 'node:crypto'
import type { Database } from '../db/database.ts'
import type { Project } from '../../src/domain/project.ts'
import {
  pagePath,
  slugFromName,
  type PublishResult,
  type SetSlugResult,
  type UnpublishResult,
} from '../../src/domain/publish.ts'
import * as pages from '../storage/pages.ts'
import { findProjectForUser } from '../storage/projects.ts'
import { AppError } from './errors.ts'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import type { ImageVariants } from '../uploads/variants.ts'
import type { BackgroundTasks } from './background.ts'

/**
 * Where the public pages are seen from (docs/publishing.md): PUBLIC_URL when set, else the
 * server's own address once it listens; until then, addresses are answered as paths.
 */
export class PublicOrigin {
  constructor(public value: string | null = null) {}

  url(slug: string): string {
    return `${this.value ?? ''}${pagePath(slug)}`
  }

  /** A project as answered: its page's address made absolute. */
  present<P extends Project>(project: P): P {
    if (!project.published) return project
    return {
      ...project,
      published: { ...project.published, url: this.url(project.published.slug) },
    }
  }
}

/** How many made-up slugs are tried before giving up (each collision is one in 36⁴). */
const SLUG_TRIES = 8

/**
 * Publishing (docs/publishing.md, docs/API.md "Published pages"): a project's snapshot at a public
 * address. Any member of the project's workspace (editor or admin) may publish; anyone else gets
 * 404 as for any project of another workspace.
 */
export class PageService {
  constructor(
    private readonly db: Database,
    readonly origin: PublicOrigin,
    private readonly variants: ImageVariants,
    private readonly background: BackgroundTasks,
  ) {}

  /** Pixel sizes of uploads, read once (an upload's bytes never change). */
  private readonly sizes = new Map<string, { width: number; height: number } | null>()

  /** The pixel sizes of the project's uploaded images as they are now (docs/publishing.md). */
  private async measureImages(projectId: number) {
    const { rows } = await this.db.query<{ url: string }>(
      `SELECT g.image_url AS url FROM backgrounds g WHERE g.project_id = $1
       UNION SELECT b.data->>'image_url' FROM blocks b JOIN backgrounds g ON g.id = b.bg_id
       WHERE g.project_id = $1 AND b.type = 'image'`,
      [projectId],
    )
    const out: Record<string, { width: number; height: number }> = {}
    for (const { url } of rows) {
      const name = url ? /^\/uploads\/([^/?#]+)$/.exec(url)?.[1] : undefined
      if (!name) continue
      if (!this.sizes.has(name)) this.sizes.set(name, await this.variants.measure(name))
      const size = this.sizes.get(name)
      if (size) out[url] = size
    }
    return out
  }

  /** Told when this instance changed a page, so that its public route reads it afresh. */
  onChange: () => void = () => {}

  private async member(userId: number, projectId: number): Promise<Project> {
    const project = await findProjectForUser(this.db, projectId, userId)
    if (!project) throw AppError.notFound()
    return project
  }

  /**
   * The project's slug, given now when it has none: its name transliterated, with a short random
   * suffix when that is taken. Claimed on its own, outside any transaction: the unique index
   * decides between two projects that want the same one.
   */
  private async ensureSlug(project: Project): Promise<string> {
    const found = await pages.findPage(this.db, project.id)
    if (found) return found.slug
    const base = slugFromName(project.name)
    for (let i = 0; i < SLUG_TRIES; i++) {
      const slug = i === 0 ? base : `${base}-${suffix()}`
      if (await pages.claimSlug(this.db, project.id, slug)) return slug
      // Another request of this project may have given it one meanwhile.
      const again = await pages.findPage(this.db, project.id)
      if (again) return again.slug
    }
    throw new Error('no free slug found')
  }

  async publish(userId: number, projectId: number): Promise<PublishResult> {
    const project = await this.member(userId, projectId)
    const slug = await this.ensureSlug(project)
    const measured = await this.measureImages(projectId)
    let images: { name: string; width: number }[] = []
    const row = await this.db.transaction(async (tx) => {
      // The project as it is now, held until the snapshot is stored: a block save waits for it.
      const { rows } = await tx.query<{ name: string; type: number | null; workspace_id: number }>(
        'SELECT name, type, workspace_id FROM projects WHERE id = $1 FOR UPDATE',
        [projectId],
      )
      const now = rows[0]
      if (!now) throw AppError.notFound()
      const snapshot = await pages.takeSnapshot(tx, { id: projectId, ...now })
      const shown = new Set([
        ...snapshot.backgrounds.map((bg) => bg.image_url),
        ...snapshot.blocks.map((b) => (b.type === 'image' ? String(b.image_url) : '')),
      ])
      snapshot.images = Object.fromEntries(
        Object.entries(measured).filter(([url]) => shown.has(url)),
      )
      images = Object.entries(snapshot.images).map(([url, size]) => ({
        name: url.slice('/uploads/'.length),
        width: size.width,
      }))
      return pages.storeSnapshot(tx, projectId, snapshot)
    })
    // The resized copies the page offers, made now rather than on its first visitors' requests.
    this.background.run(
      () => this.variants.warm(images),
      () => undefined,
    )
    this.onChange()
    return {
      project_id: projectId,
      slug,
      url: this.origin.url(row.slug),
      published_at: row.published_at!,
      published_version: row.published_version,
    }
  }

  async unpublish(userId: number, projectId: number): Promise<UnpublishResult> {
    await this.member(userId, projectId)
    await pages.dropSnapshot(this.db, projectId)
    this.onChange()
    return { project_id: projectId, published: false }
  }

  async setSlug(userId: number, projectId: number, slug: string): Promise<SetSlugResult> {
    await this.member(userId, projectId)
    if (!(await pages.claimSlug(this.db, projectId, slug))) {
      throw new AppError(409, ERROR_CODES.slugTaken, 'slug_taken', {
        slug: { code: 'slug_taken' },
      })
    }
    this.onChange()
    return { project_id: projectId, slug, url: this.origin.url(slug) }
  }

  /** The published page at a slug, or null. */
  find(slug: string) {
    return pages.findPublished(this.db, slug)
  }

  version(slug: string) {
    return pages.publishedVersion(this.db, slug)
  }
}

function suffix(): string {
  const bytes = randomBytes(4)
  return [...bytes].map((b) => '0123456789abcdefghijklmnopqrstuvwxyz'[b % 36]).join('')
}
