import * as v from 'valibot'
import {
  email,
  FieldCode,
  Id,
  LIMITS,
  RowVersion,
  optionalText,
  optionalWebUrl,
  requiredText,
  storableString,
} from './validation.ts'

export const DIRECTORY_KINDS = ['department', 'location', 'specialist'] as const
export type DirectoryKind = (typeof DIRECTORY_KINDS)[number]

const phone = v.pipe(
  storableString(FieldCode.invalidPhone),
  v.trim(),
  v.maxLength(40, FieldCode.tooLong),
  v.check((s) => s === '' || /^\+?[\d\s()-]{5,}$/.test(s), FieldCode.invalidPhone),
)
const optionalEmail = v.union([v.literal(''), email], FieldCode.invalidEmail)

export const DepartmentFields = {
  name: requiredText(),
  description: optionalText(LIMITS.longText),
}
export const LocationFields = {
  name: requiredText(),
  address: optionalText(LIMITS.shortText),
  phone,
}
export const SpecialistFields = {
  name: requiredText(),
  position: optionalText(LIMITS.name),
  department_id: v.nullable(Id),
  location_id: v.nullable(Id),
  phone,
  email: optionalEmail,
  photo_url: optionalText(LIMITS.url),
  description: optionalText(LIMITS.longText),
}

export const Department = v.object({
  id: Id,
  workspace_id: Id,
  version: RowVersion,
  name: v.string(),
  description: v.string(),
})
export type Department = v.InferOutput<typeof Department>

export const Location = v.object({
  id: Id,
  workspace_id: Id,
  version: RowVersion,
  name: v.string(),
  address: v.string(),
  phone: v.string(),
})
export type Location = v.InferOutput<typeof Location>

export const Specialist = v.object({
  id: Id,
  workspace_id: Id,
  version: RowVersion,
  name: v.string(),
  position: v.string(),
  department_id: v.nullable(Id),
  location_id: v.nullable(Id),
  phone: v.string(),
  email: v.string(),
  photo_url: v.string(),
  description: v.string(),
  enabled: v.boolean(),
})
export type Specialist = v.InferOutput<typeof Specialist>

export const DepartmentInput = v.object({ workspace_id: Id, ...DepartmentFields })
export const LocationInput = v.object({ workspace_id: Id, ...LocationFields })
export const SpecialistInput = v.object({ workspace_id: Id, ...SpecialistFields })
export const DepartmentUpdate = v.object({
  id: Id,
  ...v.partial(v.object(DepartmentFields)).entries,
})
export const LocationUpdate = v.object({ id: Id, ...v.partial(v.object(LocationFields)).entries })
export const SpecialistUpdate = v.object({
  id: Id,
  ...v.partial(v.object(SpecialistFields)).entries,
})

export { optionalWebUrl }
