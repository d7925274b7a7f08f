import { describe, expect, it, vi } from 'vitest'
import {
  SHORT_FREE_BYTES,
  secureDeviceStorage,
  type DeviceStorage,
} from '../../src/data/device-storage.ts'

const MB = 1024 * 1024

function storage(over: Partial<DeviceStorage> & { usage?: number; quota?: number } = {}) {
  const { usage = 10 * MB, quota = 2000 * MB, ...rest } = over
  return {
    persisted: vi.fn(() => Promise.resolve(false)),
    persist: vi.fn(() => Promise.resolve(true)),
    estimate: vi.fn(() => Promise.resolve({ usage, quota })),
    ...rest,
  }
}

describe('device storage', () => {
  it('asks for persistent storage when it is not granted yet', async () => {
    const s = storage()
    const report = await secureDeviceStorage(s)
    expect(s.persist).toHaveBeenCalledTimes(1)
    expect(report).toEqual({ persisted: true, freeBytes: 1990 * MB, short: false })
  })

  it('does not ask again when storage is already persistent', async () => {
    const s = storage({ persisted: () => Promise.resolve(true) })
    const report = await secureDeviceStorage(s)
    expect(s.persist).not.toHaveBeenCalled()
    expect(report.persisted).toBe(true)
  })

  it('reports short storage when little space is left', async () => {
    const report = await secureDeviceStorage(
      storage({ usage: 100 * MB, quota: 100 * MB + SHORT_FREE_BYTES - 1 }),
    )
    expect(report.short).toBe(true)
    expect(report.freeBytes).toBe(SHORT_FREE_BYTES - 1)
  })

  it('reports short storage when most of the quota is used', async () => {
    const report = await secureDeviceStorage(storage({ usage: 950 * MB, quota: 1000 * MB }))
    expect(report.short).toBe(true)
  })

  it('never throws when the browser refuses or lacks the API', async () => {
    const refusing = storage({
      persisted: () => Promise.reject(new Error('denied')),
      estimate: () => Promise.reject(new Error('denied')),
    })
    expect(await secureDeviceStorage(refusing)).toEqual({
      persisted: false,
      freeBytes: null,
      short: false,
    })
    expect(await secureDeviceStorage(undefined)).toEqual({
      persisted: false,
      freeBytes: null,
      short: false,
    })
  })
})
