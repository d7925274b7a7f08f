import { STATUS_CODES } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { serve } from '@hono/node-server'
import { ERROR_CODES } from '../src/domain/api-error.ts'
import { createApp, resolveLogger, type AppOptions, type AppReady } from './app.ts'
import { sendAnswer } from './http/answer.ts'
import type { Logger } from './common/log.ts'
import { errorMessage } from './common/messages.ts'

export interface StartOptions extends Omit<AppOptions, 'dataDir'> {
  /** 0 picks a free port. Default 8080. */
  port?: number
  /** Default 127.0.0.1 for port 0 (tests), otherwise all interfaces. */
  hostname?: string
  dataDir?: string | 'memory'
}

export interface RunningServer {
  url: string
  port: number
  ready: AppReady
  close(): Promise<void>
}

/**
 * A request Node cannot even parse — headers over 16 KB, a broken request line or chunk, both a
 * Content-Length and a Transfer-Encoding — gets the API's error body too (docs/API.md, "Errors"),
 * then the connection is closed: Node's own answer has no body. It is logged with the status it
 * was answered: the client's fault, never the server's.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, log: Logger): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy()
    return
  }
  const [status, code, messageKey] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, ERROR_CODES.tooLarge, 'too_large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, ERROR_CODES.timeout, 'request_timeout']
        : [400, ERROR_CODES.badRequest, 'bad_request']
  log({ level: 'info', event: 'client_error', status, reason: error.code ?? error.message })
  const body = JSON.stringify({ error: { code, message: errorMessage(messageKey) } })
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  )
}

/** Starts the API (and the PWA when staticDir is given) on a port; resolves once it serves. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const app = createApp(options)
  const ready = await app.ready()
  const port = options.port ?? 8080
  const hostname = options.hostname ?? (port === 0 ? '127.0.0.1' : undefined)
  const { server, address } = await new Promise<{
    server: ReturnType<typeof serve>
    address: AddressInfo
  }>((resolve, reject) => {
    const server = serve(
      {
        // An API answer known in full is written to Node's response here (server/http/answer.ts).
        fetch: (req, env) => {
          const res = app.fetch(req, env)
          return res instanceof Promise
            ? res.then((r) => sendAnswer(r, env.outgoing))
            : sendAnswer(res, env.outgoing)
        },
        port,
        hostname,
        // Keep Node's own Request/Response: the process may also run client code (tests).
        overrideGlobalObjects: false,
      },
      (info) => resolve({ server, address: info }),
    )
    server.once('error', reject)
  })
  const log = resolveLogger(options.log)
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, log),
  )
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const shown = host === '0.0.0.0' || host === '[::]' ? 'localhost' : host
  const url = `http://${shown}:${address.port}`
  // Published pages' addresses: PUBLIC_URL when given, else this server's own.
  ready.services.pages.origin.value ??= url
  return {
    url,
    port: address.port,
    ready,
    async close() {
      // Event streams end first, cleanly (docs/API.md, "Live changes"): their clients resume.
      ready.services.events.close()
      await new Promise((resolve) => setImmediate(resolve))
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Idle keep-alive connections would hold close() open.
        if ('closeAllConnections' in server) server.closeAllConnections()
      })
      await app.close()
    },
  }
}
