import type { Context } from 'hono'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import { AppError } from '../services/errors.ts'
import { jsonText } from './answer.ts'
import { errorMessage, fieldMessage } from '../common/messages.ts'

/** The error body of docs/API.md "Errors", with Russian text. */
export function errorResponse(error: AppError, headers: Record<string, string> = {}): Response {
  const body: {
    code: string
    message: string
    fields?: Record<string, string>
    current?: unknown
  } = {
    code: error.code,
    message: errorMessage(error.messageKey),
  }
  if (error.fields) {
    body.fields = {}
    for (const [field, problem] of Object.entries(error.fields)) {
      body.fields[field] = fieldMessage(problem)
    }
  }
  if (error.current !== undefined) body.current = error.current
  return jsonText(JSON.stringify({ error: body }), error.status, headers)
}

export const tooLarge = (messageKey = 'too_large') =>
  new AppError(413, ERROR_CODES.tooLarge, messageKey)

export const badJson = () => new AppError(400, ERROR_CODES.badJson, 'bad_json')

/** A request that is not HTTP Node can read: a broken request line, chunk or framing. */
export const badRequest = () => new AppError(400, ERROR_CODES.badRequest, 'bad_request')

export const routeNotFound = () => new AppError(404, ERROR_CODES.notFound, 'route_not_found')

/** Reads a JSON body: empty means `{}`, malformed is a 400. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text()
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw badJson()
  }
}
