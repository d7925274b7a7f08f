import type { Database } from '../db/database.ts'
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
import type { ReceivedUpload } from '../http/upload-body.ts'
import { AppError } from './errors.ts'
import { copyName } from '../../src/domain/project.ts'
import { MAX_IMAGE_SIDE, type UploadService } from './uploads.ts'

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
  ) {}

  async owned(userId: number, id: number): Promise<Project> {
    const project = await store.findProjectForUser(this.db, id, userId)
    if (!project) throw AppError.notFound()
    return project
  }

  async list(userId: number, workspaceId: number): Promise<Project[]> {
    if (!(await isMember(this.db, userId, workspaceId))) throw AppError.notFound()
    return store.listProjects(this.db, workspaceId)
  }

  async add(userId: number, workspaceId: number, name: string): Promise<Project> {
    if (!(await isMember(this.db, userId, workspaceId))) throw AppError.notFound()
    return store.insertProject(this.db, workspaceId, name, null)
  }

  async rename(userId: number, id: number, name: string): Promise<Project> {
    await this.owned(userId, id)
    return store.updateProject(this.db, id, { name })
  }

  async setType(userId: number, id: number, type: ProjectTypeId): Promise<Project> {
    await this.owned(userId, id)
    return store.updateProject(this.db, id, { type })
  }

  async get(userId: number, id: number): Promise<ProjectWithBackgrounds> {
    const project = await this.owned(userId, id)
    return { ...project, backgrounds: await store.listBackgrounds(this.db, id) }
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
      return copy
    })
  }

  async delete(userId: number, id: number): Promise<void> {
    await this.owned(userId, id)
    await store.deleteProject(this.db, id)
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

  async deleteBackground(userId: number, id: number): Promise<void> {
    const bg = await store.findBackgroundForUser(this.db, id, userId)
    if (!bg) throw AppError.notFound()
    await this.db.transaction(async (tx) => {
      await store.deleteBackground(tx, id)
      await store.touchProject(tx, bg.project_id)
    })
  }
}
