import * as v from 'valibot'
import { BLOCK_TYPES } from './block.ts'
import { FieldCode, Id, IdParam } from './validation.ts'

/** Request shapes shared by the API client and the reference server (docs/API.md). */

/** `{"id": N}` bodies: delete, disable, able, delete_item, delete_bg. */
export const IdBody = v.object({ id: Id })
/** `?id=N` queries: get, copy, delete. */
export const IdQuery = v.object({ id: IdParam })
export const WorkspaceQuery = v.object({ workspace_id: IdParam })
export const ProjectQuery = v.object({ project_id: IdParam })
export const BackgroundQuery = v.object({ bg_id: IdParam })

/**
 * What a block save (`/api/{type}/add`, `/update`) says about itself before the fields are checked:
 * an id when it updates, and a type that, when given, must match the route.
 */
export const BlockSaveRef = v.object({
  id: v.optional(v.nullable(Id)),
  type: v.optional(v.picklist(BLOCK_TYPES, FieldCode.invalidChoice)),
})

/** Optional explicit pixel size sent with `project/add_bg` (form fields are strings). */
export const BackgroundSizeFields = v.object({
  project_id: IdParam,
  width: v.optional(v.pipe(IdParam, v.maxValue(100_000, FieldCode.outOfRange))),
  height: v.optional(v.pipe(IdParam, v.maxValue(100_000, FieldCode.outOfRange))),
})
