import { describe, expect, it } from 'vitest'
import { splitForGesture } from '../../src/features/editor/canvas/gesture-layers.ts'
import { RenderScheduler } from '../../src/features/editor/canvas/render-scheduler.ts'

describe('which drawables stay live during a gesture', () => {
  const scene = ['picture', 'grid', 'a', 'b', 'c', 'd', 'e']

  it('freezes everything under and over a single moving block', () => {
    expect(splitForGesture(scene, (d) => d === 'c')).toEqual({
      below: ['picture', 'grid', 'a', 'b'],
      live: ['c'],
      above: ['d', 'e'],
    })
  })

  it('keeps static blocks between two moving ones live, so the z-order stays exact', () => {
    expect(splitForGesture(scene, (d) => d === 'b' || d === 'd')).toEqual({
      below: ['picture', 'grid', 'a'],
      live: ['b', 'c', 'd'],
      above: ['e'],
    })
  })

  it('has nothing over the front-most block and nothing under the back-most drawable', () => {
    expect(splitForGesture(scene, (d) => d === 'e')).toEqual({
      below: ['picture', 'grid', 'a', 'b', 'c', 'd'],
      live: ['e'],
      above: [],
    })
    expect(splitForGesture(scene, (d) => d === 'picture').below).toEqual([])
  })

  it('leaves everything frozen when nothing moves, and keeps every drawable exactly once', () => {
    expect(splitForGesture(scene, () => false)).toEqual({ below: scene, live: [], above: [] })
    const moving = new Set(['a', 'e'])
    const { below, live, above } = splitForGesture(scene, (d) => moving.has(d))
    expect([...below, ...live, ...above]).toEqual(scene)
  })
})

describe('rendering on demand', () => {
  function fakeClock() {
    let next = 1
    const waiting = new Map<number, () => void>()
    return {
      clock: {
        request: (callback: () => void) => {
          waiting.set(next, callback)
          return next++
        },
        cancel: (handle: number) => void waiting.delete(handle),
      },
      waiting,
      /** Runs the callbacks waiting for this animation frame. */
      frame() {
        const due = [...waiting.values()]
        waiting.clear()
        for (const callback of due) callback()
      },
    }
  }

  it('draws nothing until asked, and once per animation frame however often it is asked', () => {
    const t = fakeClock()
    let drawn = 0
    const scheduler = new RenderScheduler(() => (drawn += 1), t.clock)
    t.frame()
    expect(drawn).toBe(0)
    scheduler.request()
    scheduler.request()
    scheduler.request()
    expect(t.waiting.size).toBe(1)
    t.frame()
    t.frame()
    expect(drawn).toBe(1)
    expect(scheduler.frames).toBe(1)
  })

  it('takes a change reported while drawing as part of that frame, and a later one as new', () => {
    const t = fakeClock()
    let drawn = 0
    const scheduler: RenderScheduler = new RenderScheduler(() => {
      drawn += 1
      scheduler.request()
    }, t.clock)
    scheduler.request()
    t.frame()
    t.frame()
    expect(drawn).toBe(1)
    scheduler.request()
    t.frame()
    expect(drawn).toBe(2)
  })

  it('keeps working after a frame that threw', () => {
    const t = fakeClock()
    let drawn = 0
    const scheduler = new RenderScheduler(() => {
      drawn += 1
      if (drawn === 1) throw new Error('lost context')
    }, t.clock)
    scheduler.request()
    expect(() => t.frame()).toThrow('lost context')
    scheduler.request()
    t.frame()
    expect(drawn).toBe(2)
  })

  it('flushes a waiting frame at once and drops it when stopped', () => {
    const t = fakeClock()
    let drawn = 0
    const scheduler = new RenderScheduler(() => (drawn += 1), t.clock)
    scheduler.flush()
    expect(drawn).toBe(0)
    scheduler.request()
    scheduler.flush()
    expect(drawn).toBe(1)
    expect(t.waiting.size).toBe(0)
    scheduler.request()
    scheduler.stop()
    t.frame()
    expect(drawn).toBe(1)
  })
})
