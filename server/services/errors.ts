import { ERROR_CODES } from '../../src/domain/api-error.ts'

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES]

/**
 * A failure a service reports to its caller. `fields` hold message codes (FieldCode or the server's
 * own), which the HTTP edge turns into Russian text; `message` is a key of the messages table.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly messageKey: string,
    readonly fields?: Record<string, FieldProblem>,
    /** A refused conditional write: the row as it is now (docs/API.md, "Conditional writes"). */
    readonly current?: unknown,
  ) {
    super(messageKey)
  }

  static notFound(): AppError {
    return new AppError(404, ERROR_CODES.notFound, 'not_found')
  }
  static validation(fields: Record<string, FieldProblem>): AppError {
    return new AppError(422, ERROR_CODES.validation, 'validation', fields)
  }
  static conflict(messageKey: string, fields?: Record<string, FieldProblem>): AppError {
    return new AppError(409, ERROR_CODES.conflict, messageKey, fields)
  }
  /** The row changed since the version the write was made from; `current` is the row now. */
  static versionConflict(current: unknown): AppError {
    return new AppError(409, ERROR_CODES.conflict, 'version_conflict', undefined, current)
  }
  static forbidden(): AppError {
    return new AppError(403, ERROR_CODES.forbidden, 'forbidden')
  }
  static unauthorized(messageKey = 'unauthorized'): AppError {
    return new AppError(401, ERROR_CODES.unauthorized, messageKey)
  }
}

/** A field's message code and, when the code has a limit (too_long), that limit. */
export interface FieldProblem {
  code: string
  requirement?: unknown
}
