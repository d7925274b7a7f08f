import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
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
