import type * as v from 'valibot'
import { request } from './client.ts'

/**
 * Multipart uploads (`project/add_bg`, `image/upload`): field `file` plus any string fields. The
 * browser sets the multipart boundary itself; `request` passes a FormData body through as is.
 */
export function postForm<S extends v.GenericSchema>(
  path: string,
  file: Blob,
  fields: Record<string, string | number>,
  options: { schema: S; idempotencyKey: string; fileName?: string },
): Promise<v.InferOutput<S>> {
  const form = new FormData()
  form.append('file', file, options.fileName ?? fileNameFor(file))
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value))
  return request(path, {
    method: 'POST',
    body: form,
    schema: options.schema,
    idempotencyKey: options.idempotencyKey,
    timeoutMs: 120_000,
  })
}

function fileNameFor(file: Blob): string {
  const extension = /^image\/(jpeg|png|webp|gif)$/.exec(file.type)?.[1] ?? 'bin'
  return `upload.${extension === 'jpeg' ? 'jpg' : extension}`
}
