import { describe, expect, it } from 'vitest'
import { Batches } from '../../server/common/batches.ts'

/** A write whose calls end when the test says, recording the items of each call. */
function gatedWrite(fail: (items: number[]) => boolean = () => false) {
  const calls: number[][] = []
  const gates: (() => void)[] = []
  const write = async (items: number[]) => {
    calls.push(items)
    await new Promise<void>((resolve) => gates.push(resolve))
    if (fail(items)) throw new Error(`refused ${items.join(',')}`)
    return items.map((n) => n * 10)
  }
  const release = async () => {
    while (gates.length === 0) await new Promise((resolve) => setImmediate(resolve))
    gates.shift()!()
  }
  return { calls, write, release }
}

describe('Batches', () => {
  it('writes the first item alone and the ones that arrived meanwhile together', async () => {
    const { calls, write, release } = gatedWrite()
    const batches = new Batches(write, 10)
    const first = batches.run(1)
    const rest = [2, 3, 4].map((n) => batches.run(n))
    expect(calls).toEqual([[1]])
    await release()
    expect(await first).toBe(10)
    await release()
    expect(await Promise.all(rest)).toEqual([20, 30, 40])
    expect(calls).toEqual([[1], [2, 3, 4]])
  })

  it('puts at most `max` items in one call', async () => {
    const { calls, write, release } = gatedWrite()
    const batches = new Batches(write, 2)
    const all = [1, 2, 3, 4, 5].map((n) => batches.run(n))
    for (let i = 0; i < 3; i++) await release()
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50])
    expect(calls).toEqual([[1], [2, 3], [4, 5]])
  })

  it('runs up to `parallel` calls at once', async () => {
    const { calls, write, release } = gatedWrite()
    const batches = new Batches(write, 10, 2)
    const all = [1, 2, 3].map((n) => batches.run(n))
    expect(calls).toEqual([[1], [2]])
    for (let i = 0; i < 3; i++) await release()
    expect(await Promise.all(all)).toEqual([10, 20, 30])
    expect(calls).toEqual([[1], [2], [3]])
  })

  it('tries a failed batch again item by item, so that only the bad item fails', async () => {
    const { calls, write, release } = gatedWrite((items) => items.includes(3))
    const batches = new Batches(write, 10)
    const first = batches.run(1)
    const rest = [2, 3, 4].map((n) => batches.run(n).catch((error: Error) => error.message))
    await release()
    await first
    for (let i = 0; i < 4; i++) await release()
    expect(await Promise.all(rest)).toEqual([20, 'refused 3', 40])
    expect(calls).toEqual([[1], [2, 3, 4], [2], [3], [4]])
  })

  it('goes on with the next items after a failure', async () => {
    const { write, release } = gatedWrite((items) => items.includes(1))
    const batches = new Batches(write, 10)
    const first = batches.run(1).catch((error: Error) => error.message)
    await release()
    expect(await first).toBe('refused 1')
    const next = batches.run(2)
    await release()
    expect(await next).toBe(20)
  })
})
