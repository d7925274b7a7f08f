import * as v from 'valibot'
import { PublishedState } from './publish.ts'
import { FieldCode, Id, requiredText, RowVersion } from './validation.ts'

/** The two editors (docs/editor.md "Two editors"). */
/**
 * The name the server gives a project's copy (the original's name with « (копия)», at most 200
 * characters); the app shows it at once, before the copy has replayed.
 */
export function copyName(name: string): string {
  // eslint-disable-next-line no-restricted-syntax -- the API's naming of copies, stored data, not UI text
  return `${name} (копия)`.slice(0, 200)
}

export const PROJECT_TYPE_IDS = [1, 2] as const
export const ProjectTypeId = v.picklist(PROJECT_TYPE_IDS, FieldCode.invalidChoice)
export type ProjectTypeId = v.InferOutput<typeof ProjectTypeId>

export const ProjectType = v.object({
  id: ProjectTypeId,
  name: v.string(),
  description: v.string(),
  /** Background aspect ratio width / height used when a background has no image yet. */
  aspect: v.number(),
})
export type ProjectType = v.InferOutput<typeof ProjectType>

export const Project = v.object({
  id: Id,
  workspace_id: Id,
  version: RowVersion,
  name: v.string(),
  type: v.nullable(ProjectTypeId),
  updated_at: v.string(),
  /** The first background's image, for the projects list; absent on rows made on this device. */
  cover_url: v.optional(v.nullable(v.string())),
  /**
   * Its public page (docs/publishing.md): null when not published; absent on rows made on this
   * device and from servers before publishing.
   */
  published: v.optional(v.nullable(PublishedState)),
  /** The page's address, set or given at the first publish; null until then. */
  slug: v.optional(v.nullable(v.string())),
})
export type Project = v.InferOutput<typeof Project>

export const Background = v.object({
  id: Id,
  project_id: Id,
  version: RowVersion,
  image_url: v.string(),
  width: v.number(),
  height: v.number(),
  position: v.number(),
})
export type Background = v.InferOutput<typeof Background>

export const ProjectWithBackgrounds = v.object({
  ...Project.entries,
  backgrounds: v.array(Background),
})
export type ProjectWithBackgrounds = v.InferOutput<typeof ProjectWithBackgrounds>

export const ProjectInput = v.object({ workspace_id: Id, name: requiredText() })
export const ProjectRename = v.object({ id: Id, name: requiredText() })
export const ProjectSetType = v.object({ project_id: Id, type: ProjectTypeId })

export const UploadResponse = v.object({ url: v.string() })

/** Editor route segment for a project type. */
export function editorPath(type: ProjectTypeId): 'type-1' | 'type-2' {
  return type === 1 ? 'type-1' : 'type-2'
}
