import * as v from 'valibot'
import { issueCode } from '../../src/domain/validation.ts'
import { AppError, type FieldProblem } from './errors.ts'

/** Field problems from valibot issues: the first per dot path ("_" for the whole input). */
export function issuesToProblems(
  issues: readonly v.BaseIssue<unknown>[],
): Record<string, FieldProblem> {
  const out: Record<string, FieldProblem> = {}
  for (const issue of issues) {
    const key = v.getDotPath(issue) ?? '_'
    if (key in out) continue
    out[key] = { code: issueCode(issue), requirement: issue.requirement }
  }
  return out
}

/** Parses input with a shared schema, or throws a 422 with the fields that failed. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input)
  if (!result.success) throw AppError.validation(issuesToProblems(result.issues))
  return result.output
}
