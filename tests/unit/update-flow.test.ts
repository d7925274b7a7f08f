import { describe, expect, it, vi } from 'vitest'
import {
  wireUpdatePrompt,
  type UpdatableWorker,
} from '../../src/features/app-update/update-flow.ts'

type Listener = (event: { isUpdate?: boolean }) => void

/** A stand-in for workbox-window's Workbox that records what the flow does, in order. */
function fakeWorker(log: string[]) {
  const listeners: Record<string, Listener[]> = {}
  const worker: UpdatableWorker = {
    addEventListener: (type, listener) => {
      ;(listeners[type] ??= []).push(listener)
    },
    messageSkipWaiting: () => log.push('skip-waiting'),
  }
  const emit = (type: 'waiting' | 'controlling', event: { isUpdate?: boolean } = {}) =>
    (listeners[type] ?? []).forEach((listener) => listener(event))
  return { worker, emit }
}

function setup(beforeUpdate: () => Promise<void>) {
  const log: string[] = []
  const { worker, emit } = fakeWorker(log)
  let accept: (() => Promise<void>) | null = null
  const showPrompt = vi.fn((fn: () => Promise<void>) => {
    accept = fn
    log.push('prompt')
  })
  wireUpdatePrompt(worker, {
    beforeUpdate: async () => {
      log.push('flush-start')
      await beforeUpdate()
      log.push('flush-done')
    },
    showPrompt,
    reload: () => log.push('reload'),
  })
  return { log, emit, showPrompt, accept: () => accept!() }
}

describe('update prompt', () => {
  it('asks first and does nothing until the user accepts', () => {
    const { log, emit, showPrompt } = setup(() => Promise.resolve())
    emit('waiting')
    expect(showPrompt).toHaveBeenCalledTimes(1)
    expect(log).toEqual(['prompt'])
  })

  it('flushes, then lets the new worker take over, then reloads once it controls the page', async () => {
    const { log, emit, accept } = setup(() => Promise.resolve())
    emit('waiting')
    await accept()
    expect(log).toEqual(['prompt', 'flush-start', 'flush-done', 'skip-waiting'])
    emit('controlling', { isUpdate: true })
    emit('controlling', { isUpdate: true })
    expect(log.filter((entry) => entry === 'reload')).toHaveLength(1)
    expect(log.at(-1)).toBe('reload')
  })

  it('keeps the old version when the flush fails, and a second press retries', async () => {
    let fail = true
    const { log, emit, accept } = setup(() =>
      fail ? Promise.reject(new Error('offline')) : Promise.resolve(),
    )
    emit('waiting')
    await expect(accept()).rejects.toThrow('offline')
    expect(log).not.toContain('skip-waiting')
    expect(log).not.toContain('reload')
    fail = false
    await accept()
    expect(log.at(-1)).toBe('skip-waiting')
  })

  it('does not reload when the first install takes control', () => {
    const { log, emit } = setup(() => Promise.resolve())
    emit('controlling', { isUpdate: false })
    expect(log).toEqual([])
  })

  it('when another tab accepted the update, asks here too and reloads after the flush', async () => {
    const { log, emit, accept } = setup(() => Promise.resolve())
    emit('controlling', { isUpdate: true })
    expect(log).toEqual(['prompt'])
    await accept()
    expect(log).toEqual(['prompt', 'flush-start', 'flush-done', 'reload'])
  })
})
