import { act, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AfterFirstScreen, FirstScreenMark, firstScreenDrawn } from '../../src/ui/first-screen.tsx'

describe('the first screen signal (docs/performance.md)', () => {
  it('holds what waits for it until a screen marks itself drawn', async () => {
    let drawn = false
    void firstScreenDrawn().then(() => (drawn = true))
    const { rerender } = render(
      <AfterFirstScreen>
        <p>виджет</p>
      </AfterFirstScreen>,
    )
    await act(async () => undefined)
    expect(screen.queryByText('виджет')).toBeNull()
    expect(drawn).toBe(false)
    rerender(
      <>
        <AfterFirstScreen>
          <p>виджет</p>
        </AfterFirstScreen>
        <FirstScreenMark />
      </>,
    )
    expect(await screen.findByText('виджет')).toBeTruthy()
    expect(drawn).toBe(true)
  })
})

describe('the fallback for a screen that marks nothing (docs/performance.md)', () => {
  // A fresh copy of the module per case, its timers started at import (jsdom's document has
  // loaded), on fake timers.
  async function freshSignal() {
    vi.useFakeTimers()
    vi.resetModules()
    const signal = await import('../../src/ui/first-screen.tsx')
    const state = { drawn: false }
    void signal.firstScreenDrawn().then(() => (state.drawn = true))
    return { ...signal, state }
  }

  afterEach(() => {
    vi.useRealTimers()
  })

  it('counts the screen drawn 3 s after load when nothing is held', async () => {
    const { state } = await freshSignal()
    await vi.advanceTimersByTimeAsync(2_999)
    expect(state.drawn).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(state.drawn).toBe(true)
  })

  it('waits while the screen’s data is on its way, then for a quiet moment', async () => {
    const { state, holdFirstScreen } = await freshSignal()
    const release = holdFirstScreen()
    await vi.advanceTimersByTimeAsync(8_000)
    expect(state.drawn).toBe(false)
    release()
    await vi.advanceTimersByTimeAsync(499)
    expect(state.drawn).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(state.drawn).toBe(true)
  })

  it('keeps waiting when the screen asks for more right after an answer (workspaces, then the list)', async () => {
    const { state, holdFirstScreen } = await freshSignal()
    const workspaces = holdFirstScreen()
    await vi.advanceTimersByTimeAsync(2_900)
    workspaces()
    await vi.advanceTimersByTimeAsync(300)
    const list = holdFirstScreen()
    await vi.advanceTimersByTimeAsync(2_000)
    expect(state.drawn).toBe(false)
    list()
    list()
    await vi.advanceTimersByTimeAsync(500)
    expect(state.drawn).toBe(true)
  })

  it('gives up waiting 15 s after load', async () => {
    const { state, holdFirstScreen } = await freshSignal()
    holdFirstScreen()
    await vi.advanceTimersByTimeAsync(14_999)
    expect(state.drawn).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(state.drawn).toBe(true)
  })

  it('takes a screen that marks itself for drawn whatever is held', async () => {
    const { state, holdFirstScreen, markFirstScreenDrawn } = await freshSignal()
    holdFirstScreen()
    markFirstScreenDrawn()
    await vi.advanceTimersByTimeAsync(0)
    expect(state.drawn).toBe(true)
  })
})
