import { renderHook, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import '../../src/app/i18n.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import { createMirrorService, type WatchMessage } from '../../src/sync/service.ts'
import { commandErrorMessage } from '../../src/features/records/command-error.ts'

let db: MirrorDb
let n = 0
beforeEach(() => {
  n += 1
  db = new MirrorDb(`mirror-port-${n}`)
  setDb(db)
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('the mirror service (what the sync worker exposes)', () => {
  it('answers a watched query at once and again after every command', async () => {
    const service = createMirrorService()
    const answers: unknown[] = []
    service.listen((id, message: WatchMessage) => {
      if (id === 7 && 'value' in message) answers.push(message.value)
    })
    service.watch(7, 'workspaces', [])
    await waitFor(() => expect(answers).toEqual([[]]))
    await service.run('createWorkspace', ['Клиника'])
    await waitFor(() =>
      expect(answers.at(-1)).toEqual([expect.objectContaining({ name: 'Клиника' })]),
    )
    service.unwatch(7)
    const seen = answers.length
    await service.run('createWorkspace', ['Салон'])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(answers).toHaveLength(seen)
  })

  it('keeps a full device recognisable across the worker boundary', async () => {
    const service = createMirrorService()
    const full = Object.assign(new Error('Transaction aborted'), {
      name: 'AbortError',
      inner: { name: 'QuotaExceededError' },
    })
    vi.spyOn(db, 'transaction').mockRejectedValue(full)
    const error = await service.run('createWorkspace', ['Клиника']).catch((e: unknown) => e)
    // Only name and message survive postMessage: the name alone must still tell the screen.
    const crossed = { name: (error as Error).name, message: (error as Error).message }
    expect(crossed.name).toBe('QuotaExceededError')
    expect(commandErrorMessage(crossed)).toMatch(/закончилось место/)
  })
})

/** The page side is imported afresh per test (its worker is spawned once per page). */
async function useTestDatabase() {
  vi.resetModules()
  ;(await import('../../src/data/db.ts')).setDb(db)
}

describe('the page side', () => {
  it('paints from the page itself when the sync worker fails to start', async () => {
    await db.workspaces.put({ id: 1, name: 'Клиника' })
    class BrokenWorker extends EventTarget {
      constructor() {
        super()
        setTimeout(() =>
          this.dispatchEvent(Object.assign(new Event('error'), { message: 'no script' })),
        )
      }
      postMessage() {}
      terminate() {}
    }
    vi.stubGlobal('Worker', BrokenWorker)
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await useTestDatabase()
    const { useWorkspaces } = await import('../../src/mirror/live.ts')
    const { commands } = await import('../../src/mirror/commands.ts')
    const { result } = renderHook(() => useWorkspaces())
    await waitFor(() => expect(result.current?.map((w) => w.name)).toEqual(['Клиника']))
    await commands.createWorkspace('Салон')
    await waitFor(() => expect(result.current?.map((w) => w.name)).toEqual(['Клиника', 'Салон']))
  })

  it('keeps a worker that has answered: a later uncaught error in it is only logged', async () => {
    class TalkativeWorker extends EventTarget {
      static spawned: TalkativeWorker[] = []
      constructor() {
        super()
        TalkativeWorker.spawned.push(this)
      }
      postMessage() {}
      terminate() {
        throw new Error('a worker that answered must not be terminated')
      }
    }
    vi.stubGlobal('Worker', TalkativeWorker)
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await useTestDatabase()
    const { onPageWorkerFailure, pageWorker } = await import('../../src/mirror/worker.ts')
    const spawned = pageWorker()
    const failed = vi.fn()
    onPageWorkerFailure(failed)
    const [worker] = TalkativeWorker.spawned
    worker!.dispatchEvent(new MessageEvent('message', { data: {} }))
    worker!.dispatchEvent(Object.assign(new Event('error'), { message: 'late' }))
    expect(failed).not.toHaveBeenCalled()
    expect(pageWorker()).toBe(spawned)
  })

  it('shares one watch between screens showing the same query', async () => {
    await db.workspaces.put({ id: 1, name: 'Клиника' })
    await useTestDatabase()
    const { useWorkspaces } = await import('../../src/mirror/live.ts')
    const first = renderHook(() => useWorkspaces())
    const second = renderHook(() => useWorkspaces())
    await waitFor(() => expect(first.result.current).toHaveLength(1))
    // Two watches would each get their own copy of the answer.
    await waitFor(() => expect(second.result.current).toBe(first.result.current))
  })
})
