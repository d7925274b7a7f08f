import * as v from 'valibot'
import { email, FieldCode, Id, LIMITS, requiredText, storableString } from './validation.ts'

export const ROLES = ['admin', 'editor'] as const
export const Role = v.picklist(ROLES, FieldCode.invalidChoice)
export type Role = v.InferOutput<typeof Role>

export const User = v.object({
  id: Id,
  name: v.string(),
  email: v.string(),
  role: Role,
})
export type User = v.InferOutput<typeof User>

const password = v.pipe(
  storableString(FieldCode.required),
  v.minLength(LIMITS.password.min, FieldCode.tooShort),
  v.maxLength(LIMITS.password.max, FieldCode.tooLong),
)

export const RegisterInput = v.object({ name: requiredText(), email, password })
export type RegisterInput = v.InferOutput<typeof RegisterInput>

export const LoginInput = v.object({
  email,
  password: v.pipe(
    storableString(FieldCode.required),
    v.nonEmpty(FieldCode.required),
    v.maxLength(LIMITS.password.max, FieldCode.tooLong),
  ),
})
export type LoginInput = v.InferOutput<typeof LoginInput>

export const ForgotPasswordInput = v.object({ email })
export const ResetPasswordInput = v.object({ token: requiredText(500), password })
export const UpdateProfileInput = v.object({ name: requiredText() })

export const AuthResponse = v.object({
  access_token: v.string(),
  expires_at: v.pipe(v.string(), v.isoTimestamp()),
  user: User,
})
export type AuthResponse = v.InferOutput<typeof AuthResponse>

export const CheckAuthResponse = v.object({ user: User })
