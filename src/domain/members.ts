import * as v from 'valibot'
import { Id } from './validation.ts'
import { Role } from './user.ts'

/** A person in a workspace (docs/API.md, "Members"). */
export const Member = v.object({
  user_id: Id,
  name: v.string(),
  email: v.string(),
  role: Role,
})
export type Member = v.InferOutput<typeof Member>
