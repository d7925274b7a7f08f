import { proxy } from 'comlink'
import type { QueryName } from '../data/queries.ts'
import type { CommandName, MirrorService, WatchMessage } from '../sync/service.ts'
import { onPageWorkerFailure, pageWorker } from './worker.ts'

/**
 * The page's way to the mirror: the sync worker when there is one, else the same service run on
 * the page (loaded on demand, so Dexie stays out of the page's first load). Watches are re-sent if
 * the worker fails and the page takes over.
 */

type Delivery = (message: WatchMessage) => void

const deliveries = new Map<
  number,
  { query: QueryName; args: readonly unknown[]; deliver: Delivery }
>()
let service: Promise<Pick<MirrorService, 'watch' | 'unwatch' | 'run'>> | null = null

function deliver(id: number, message: WatchMessage): void {
  deliveries.get(id)?.deliver(message)
}

async function onPage(): Promise<MirrorService> {
  const { createMirrorService } = await import('../sync/service.ts')
  const local = createMirrorService()
  local.listen(deliver)
  return local
}

function connect() {
  if (service) return service
  const worker = pageWorker()
  if (!worker) {
    service = onPage()
    return service
  }
  void worker.listen(proxy(deliver))
  service = Promise.resolve(worker)
  onPageWorkerFailure(() => {
    service = onPage()
    void service.then((local) => {
      for (const [id, { query, args }] of deliveries) local.watch(id, query, args)
    })
  })
  return service
}

/** Sends `query(...args)`'s answer to `deliver` now and after every change, until `unwatch(id)`. */
export function watch(id: number, query: QueryName, args: readonly unknown[], deliver: Delivery) {
  deliveries.set(id, { query, args, deliver })
  void connect().then((port) => port.watch(id, query, args))
}

export function unwatch(id: number): void {
  if (!deliveries.delete(id)) return
  void connect().then((port) => port.unwatch(id))
}

export async function runCommand(command: CommandName, args: readonly unknown[]): Promise<unknown> {
  return (await connect()).run(command, args)
}
