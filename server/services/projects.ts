import type { Database, Queryable } from '../db/database.ts'
import {
  PROJECT_TYPE_IDS,
  type Background,
  type Project,
  type ProjectType,
  type ProjectTypeId,
  type ProjectWithBackgrounds,
} from '../../src/domain/project.ts'
import * as store from '../storage/projects.ts'
import { isMember } from '../storage/workspaces.ts'
import type { ReceivedUpload } from '../uploads/received.ts'
import { AppError } from './errors.ts'
import { copyName } from '../../src/domain/project.ts'
import { MAX_IMAGE_SIDE, type UploadService } from './uploads.ts'
import { expectVersion } from './versions.ts'
import type { PublicOrigin } from './pages.ts'

export const PROJECT_TYPES: readonly ProjectType[] = [
  {
    id: PROJECT_TYPE_IDS[0],
    name: 'Лендинг',
    description: 'Страница для компьютера: фоны — секции, которые листаются вниз',
    aspect: 16 / 9,
  },
  {
    id: PROJECT_TYPE_IDS[1],
    name: 'Сторис',
    description: 'Вертикальные слайды на весь экран телефона, как в историях',
    aspect: 9 / 16,
  },
]

export class ProjectService {
  constructor(
    private readonly db: Database,
    private readonly uploads: UploadService,
    private readonly origin: PublicOrigin,
  ) {}

  async owned(userId: number, id: number): Promise<Project> {
    const project = await store.findProjectForUser(this.db, id, userId)
    if (!project) throw AppError.notFound()
    return this.origin.present(project)
  }

  async list(userId: number, workspaceId: number): Promise<Project[]> {
    if (!(await isMember(this.db, userId, workspaceId))) throw AppError.notFound()
    return (await store.listProjects(this.db, workspaceId)).map((p) => this.origin.present(p))
  }

  async add(userId: number, workspaceId: number, name: string): Promise<Project> {
    if (!(await isMember(this.db, userId, workspaceId))) throw AppError.notFound()
    return this.origin.present(await store.insertProject(this.db, workspaceId, name, null))
  }

  /**
   * Holds the project until the write's transaction ends and refuses the write when it is not at
   * `expected`, answering it as project/get does (docs/API.md, "Conditional writes").
   */
  private expect(tx: Queryable, userId: number, id: number, expected: number | undefined) {
    return expectVersion(tx, 'projects', id, expected, (q) => this.read(q, userId, id))
  }

  private async update(
    userId: number,
    id: number,
    changes: { name?: string; type?: number },
    expected: number | undefined,
  ): Promise<Project> {
    await this.owned(userId, id)
    if (expected === undefined) {
      return this.origin.present(await store.updateProject(this.db, id, changes))
    }
    return this.db.transaction(async (tx) => {
      await this.expect(tx, userId, id, expected)
      return this.origin.present(await store.updateProject(tx, id, changes))
    })
  }

  rename(userId: number, id: number, name: string, expected?: number): Promise<Project> {
    return this.update(userId, id, { name }, expected)
  }

  setType(userId: number, id: number, type: ProjectTypeId, expected?: number): Promise<Project> {
    return this.update(userId, id, { type }, expected)
  }

  private async read(q: Queryable, userId: number, id: number) {
    const project = await store.findProjectForUser(q, id, userId)
    return (
      project && {
        ...this.origin.present(project),
        backgrounds: await store.listBackgrounds(q, id),
      }
    )
  }

  async get(userId: number, id: number): Promise<ProjectWithBackgrounds> {
    const project = await this.read(this.db, userId, id)
    if (!project) throw AppError.notFound()
    return project
  }

  async copy(userId: number, id: number): Promise<Project> {
    const source = await this.owned(userId, id)
    return this.db.transaction(async (tx) => {
      const copy = await store.insertProject(
        tx,
        source.workspace_id,
        copyName(source.name),
        source.type,
      )
      await store.copyProjectContent(tx, source.id, copy.id)
      return this.origin.present(copy)
    })
  }

  async delete(userId: number, id: number, expected?: number): Promise<void> {
    await this.owned(userId, id)
    await this.db.transaction(async (tx) => {
      await this.expect(tx, userId, id, expected)
      await store.deleteProject(tx, id)
    })
  }

  async addBackground(
    userId: number,
    projectId: number,
    upload: ReceivedUpload,
    size: { width?: number; height?: number },
  ): Promise<Background> {
    await this.owned(userId, projectId)
    // Every check first: a refused background stores no file.
    const image = this.uploads.checkImage(upload)
    const width = size.width ?? image.width
    const height = size.height ?? image.height
    if (!width || !height) {
      throw AppError.validation({ file: { code: 'invalid_value' } })
    }
    if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
      throw AppError.validation({
        [width > MAX_IMAGE_SIDE ? 'width' : 'height']: { code: 'image_side' },
      })
    }
    const url = await this.uploads.keep(userId, upload, image.extension)
    return this.db.transaction(async (tx) => {
      const bg = await store.insertBackground(tx, {
        project_id: projectId,
        image_url: url,
        width,
        height,
      })
      await store.touchProject(tx, projectId)
      return bg
    })
  }

  async deleteBackground(userId: number, id: number, expected?: number): Promise<void> {
    const bg = await store.findBackgroundForUser(this.db, id, userId)
    if (!bg) throw AppError.notFound()
    await this.db.transaction(async (tx) => {
      // Answered as in project/get's backgrounds.
      await expectVersion(tx, 'backgrounds', id, expected, async (q) => {
        const found = await store.findBackgroundForUser(q, id, userId)
        if (!found) return null
        const { workspace_id: _ws, ...current } = found
        return current
      })
      await store.deleteBackground(tx, id)
      await store.touchProject(tx, bg.project_id)
    })
  }
}
