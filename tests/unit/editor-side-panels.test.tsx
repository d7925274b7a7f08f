import { fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  EDITOR_PANELS_KEY,
  SidePanel,
  useSidePanels,
} from '../../src/features/editor/side-panels.tsx'
import { renderInApp } from './helpers/render-app.tsx'

let portrait = true
let original: typeof window.matchMedia
beforeEach(() => {
  localStorage.clear()
  original = window.matchMedia
  window.matchMedia = vi.fn(
    (query: string) =>
      ({
        matches: query === '(orientation: portrait)' && portrait,
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  )
})
afterEach(() => {
  window.matchMedia = original
})

function Panels() {
  const panels = useSidePanels()
  return (
    <>
      <SidePanel
        side="layers"
        open={panels.open.layers}
        onToggle={() => panels.toggle('layers')}
        label="Панель слоёв"
        width={260}
      >
        <p>Слои</p>
      </SidePanel>
      <SidePanel
        side="inspector"
        open={panels.open.inspector}
        onToggle={() => panels.toggle('inspector')}
        label="Панель свойств"
        width={300}
      >
        <p>Свойства</p>
      </SidePanel>
    </>
  )
}

const toggle = (name: string) => screen.getByRole('button', { name })

describe('the editor’s side panels', () => {
  it('start collapsed in portrait, open on a tap and remember it on the device', async () => {
    portrait = true
    const { unmount } = await renderInApp(() => <Panels />)
    expect(toggle('Панель слоёв')).toHaveAttribute('aria-expanded', 'false')
    expect(toggle('Панель свойств')).toHaveAttribute('aria-expanded', 'false')
    expect(screen.getByText('Слои')).not.toBeVisible()
    expect(screen.getByTestId('editor-panel-layers')).toHaveStyle({ width: '56px' })
    fireEvent.click(toggle('Панель слоёв'))
    expect(toggle('Панель слоёв')).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByText('Слои')).toBeVisible()
    expect(screen.getByTestId('editor-panel-layers')).toHaveStyle({ width: '260px' })
    expect(toggle('Панель слоёв').getAttribute('aria-controls')).toBe(
      screen.getByText('Слои').parentElement!.id,
    )
    expect(JSON.parse(localStorage.getItem(EDITOR_PANELS_KEY)!)).toEqual({
      portrait: { layers: true },
    })
    unmount()
    await renderInApp(() => <Panels />)
    expect(toggle('Панель слоёв')).toHaveAttribute('aria-expanded', 'true')
    expect(toggle('Панель свойств')).toHaveAttribute('aria-expanded', 'false')
  })

  it('start open in landscape, each orientation keeping its own choice', async () => {
    portrait = false
    localStorage.setItem(EDITOR_PANELS_KEY, JSON.stringify({ portrait: { inspector: true } }))
    await renderInApp(() => <Panels />)
    expect(toggle('Панель слоёв')).toHaveAttribute('aria-expanded', 'true')
    expect(toggle('Панель свойств')).toHaveAttribute('aria-expanded', 'true')
    fireEvent.click(toggle('Панель свойств'))
    expect(toggle('Панель свойств')).toHaveAttribute('aria-expanded', 'false')
    expect(screen.getByText('Свойства')).not.toBeVisible()
    expect(JSON.parse(localStorage.getItem(EDITOR_PANELS_KEY)!)).toEqual({
      portrait: { inspector: true },
      landscape: { inspector: false },
    })
  })
})
