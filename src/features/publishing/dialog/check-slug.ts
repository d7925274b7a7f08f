import * as v from 'valibot'
import { Slug } from '../../../domain/publish.ts'
import { issueCode } from '../../../domain/validation.ts'
import { fieldErrorText } from '../../../ui/field-error.ts'

/** The address as the shared `Slug` schema takes it, or its message in the person's language. */
export function checkSlug(value: string): { slug: string } | { error: string } {
  const parsed = v.safeParse(Slug, value)
  if (parsed.success) return { slug: parsed.output }
  const issue = parsed.issues[0]
  return { error: fieldErrorText(issue ? issueCode(issue) : '') }
}
