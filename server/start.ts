import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createApp, type AppOptions, type AppReady } from './app.ts'

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
      // Keep Node's own Request/Response: the process may also run client code (tests).
      { fetch: app.fetch, port, hostname, overrideGlobalObjects: false },
      (info) => resolve({ server, address: info }),
    )
    server.once('error', reject)
  })
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const shown = host === '0.0.0.0' || host === '[::]' ? 'localhost' : host
  return {
    url: `http://${shown}:${address.port}`,
    port: address.port,
    ready,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Idle keep-alive connections would hold close() open.
        if ('closeAllConnections' in server) server.closeAllConnections()
      })
      await app.close()
    },
  }
}
