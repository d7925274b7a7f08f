import * as v from 'valibot'
import { Id, requiredText } from './validation.ts'

export const Workspace = v.object({ id: Id, name: v.string() })
export type Workspace = v.InferOutput<typeof Workspace>

export const WorkspaceInput = v.object({ name: requiredText() })
export const WorkspaceUpdate = v.object({ id: Id, name: requiredText() })
