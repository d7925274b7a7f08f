import type * as v from 'valibot'
import { apiConfig, NetworkError, readResponse, request } from './client.ts'

/** Bytes sent so far of an upload, and its size. */
export type UploadProgress = (loaded: number, total: number) => void

/**
 * Multipart uploads (`project/add_bg`, `image/upload`): field `file` plus any string fields. The
 * browser sets the multipart boundary itself. With `onProgress`, and where XMLHttpRequest exists
 * (pages and dedicated workers; not service workers or Node), the upload reports its progress;
 * otherwise it goes through `request` (fetch has no upload progress).
 */
export function postForm<S extends v.GenericSchema>(
  path: string,
  file: Blob,
  fields: Record<string, string | number>,
  options: { schema: S; idempotencyKey: string; fileName?: string; onProgress?: UploadProgress },
): Promise<v.InferOutput<S>> {
  const form = new FormData()
  form.append('file', file, options.fileName ?? fileNameFor(file))
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value))
  const timeoutMs = uploadTimeoutMs(file.size)
  if (options.onProgress && typeof XMLHttpRequest !== 'undefined') {
    return sendWithProgress(path, form, {
      schema: options.schema,
      idempotencyKey: options.idempotencyKey,
      onProgress: options.onProgress,
      timeoutMs,
    })
  }
  return request(path, {
    method: 'POST',
    body: form,
    schema: options.schema,
    idempotencyKey: options.idempotencyKey,
    timeoutMs,
  })
}

/**
 * Two minutes, or longer for a big file (a video of up to 100 MB) on a slow link: as long as it
 * takes at 64 KB/s, so only a stalled upload times out (and is retried by the outbox).
 */
export function uploadTimeoutMs(bytes: number): number {
  return Math.max(120_000, Math.ceil(bytes / 64))
}

async function sendWithProgress<S extends v.GenericSchema>(
  path: string,
  form: FormData,
  options: { schema: S; idempotencyKey: string; onProgress: UploadProgress; timeoutMs: number },
): Promise<v.InferOutput<S>> {
  const { schema, idempotencyKey, onProgress } = options
  const { baseUrl, getToken } = apiConfig()
  const token = await getToken()
  const response = await new Promise<Response>((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', baseUrl + path)
    xhr.timeout = options.timeoutMs
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.setRequestHeader('Idempotency-Key', idempotencyKey)
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`)
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total)
    }
    xhr.onload = () =>
      resolve(
        new Response(xhr.status === 204 ? null : xhr.responseText, {
          status: xhr.status,
          headers: { 'Content-Type': 'application/json' },
        }),
      )
    xhr.onerror = () => reject(new NetworkError('upload failed'))
    xhr.ontimeout = () => reject(new NetworkError('upload timed out'))
    xhr.onabort = () => reject(new NetworkError('upload aborted'))
    xhr.send(form)
  })
  return readResponse(response, schema)
}

function fileNameFor(file: Blob): string {
  const extension = /^(?:image|video)\/(jpeg|png|webp|gif|mp4|webm)$/.exec(file.type)?.[1] ?? 'bin'
  return `upload.${extension === 'jpeg' ? 'jpg' : extension}`
}
