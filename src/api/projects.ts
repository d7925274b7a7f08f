import * as v from 'valibot'
import { Deleted } from '../domain/api-error.ts'
import {
  Background,
  Project,
  ProjectType,
  ProjectWithBackgrounds,
  UploadResponse,
  type ProjectTypeId,
} from '../domain/project.ts'
import { PublishResult, SetSlugResult, UnpublishResult } from '../domain/publish.ts'
import { request, type IfMatch } from './client.ts'
import { postForm, type UploadProgress } from './upload.ts'

/**
 * Projects, project types, backgrounds and uploads
 * (docs/API.md "Projects, backgrounds, uploads").
 */

export function listProjectTypes() {
  return request('/api/project_types/list', { schema: v.array(ProjectType) })
}

export function listProjects(workspaceId: number) {
  return request('/api/project/list', {
    query: { workspace_id: workspaceId },
    schema: v.array(Project),
  })
}

/** The project with its backgrounds (by position). */
export function getProject(projectId: number) {
  return request('/api/project/get', {
    query: { project_id: projectId },
    schema: ProjectWithBackgrounds,
  })
}

export function addProject(workspaceId: number, name: string, idempotencyKey: string) {
  return request('/api/project/add', {
    method: 'POST',
    body: { workspace_id: workspaceId, name },
    schema: Project,
    idempotencyKey,
  })
}

export function renameProject(id: number, name: string, idempotencyKey: string, ifMatch?: IfMatch) {
  return request('/api/project/rename', {
    method: 'POST',
    body: { id, name },
    schema: Project,
    idempotencyKey,
    ifMatch,
  })
}

export function setProjectType(
  projectId: number,
  type: ProjectTypeId,
  idempotencyKey: string,
  ifMatch?: IfMatch,
) {
  return request('/api/project/set_type', {
    method: 'POST',
    body: { project_id: projectId, type },
    schema: Project,
    idempotencyKey,
    ifMatch,
  })
}

/**
 * A GET that creates the copy: sent with an Idempotency-Key like any mutation
 * (docs/API.md "Idempotency-Key").
 */
export function copyProject(id: number, idempotencyKey: string) {
  return request('/api/project/copy', {
    method: 'GET',
    query: { id },
    schema: Project,
    idempotencyKey,
  })
}

export function deleteProject(id: number, idempotencyKey: string, ifMatch?: IfMatch) {
  return request('/api/project/delete', {
    method: 'GET',
    query: { id },
    schema: Deleted,
    idempotencyKey,
    ifMatch,
  })
}

/** Multipart: `file`, `project_id` and the size the editor measured → the new background. */
export function addBackground(
  projectId: number,
  file: Blob,
  size: { width?: number; height?: number },
  idempotencyKey: string,
  onProgress?: UploadProgress,
) {
  const fields: Record<string, number> = { project_id: projectId }
  if (size.width && size.width > 0) fields.width = Math.round(size.width)
  if (size.height && size.height > 0) fields.height = Math.round(size.height)
  return postForm('/api/project/add_bg', file, fields, {
    schema: Background,
    idempotencyKey,
    onProgress,
  })
}

export function deleteBackground(id: number, idempotencyKey: string) {
  return request('/api/project/delete_bg', {
    method: 'POST',
    body: { id },
    schema: Deleted,
    idempotencyKey,
  })
}

/** Multipart `file` → `{ url }`. */
export function uploadImage(file: Blob, idempotencyKey: string, onProgress?: UploadProgress) {
  return postForm(
    '/api/image/upload',
    file,
    {},
    { schema: UploadResponse, idempotencyKey, onProgress },
  )
}

/**
 * The project's backgrounds and blocks as the server holds them now become its public page
 * (docs/publishing.md); publishing again replaces the snapshot.
 */
export function publishProject(projectId: number, idempotencyKey: string) {
  return request('/api/project/publish', {
    method: 'POST',
    body: { project_id: projectId },
    schema: PublishResult,
    idempotencyKey,
  })
}

export function unpublishProject(projectId: number, idempotencyKey: string) {
  return request('/api/project/unpublish', {
    method: 'POST',
    body: { project_id: projectId },
    schema: UnpublishResult,
    idempotencyKey,
  })
}

/** The page's address; 422 (`fields.slug`) for a malformed one, 409 for one another page holds. */
export function setProjectSlug(projectId: number, slug: string, idempotencyKey: string) {
  return request('/api/project/set_slug', {
    method: 'POST',
    body: { project_id: projectId, slug },
    schema: SetSlugResult,
    idempotencyKey,
  })
}
