import { act, render } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

/**
 * Pixi's renderer starts asynchronously (`app.init`). @pixi/react renders the canvas's children it
 * was handed first once that init resolves, after any later render: a prop that changed meanwhile
 * (the specialists' names, which the mirror answers a moment after the blocks) was lost until the
 * next unrelated change, so a subscribe block read «Специалист не выбран» after a reload.
 */
const init = vi.hoisted(() => {
  let release: () => void = () => undefined
  const gate = new Promise<void>((resolve) => (release = resolve))
  return { gate, release: () => release() }
})

vi.mock('pixi.js', async (importOriginal) => {
  const pixi = await importOriginal<typeof import('pixi.js')>()
  /** The application without a GPU: init waits for the test, then a renderer that draws nothing. */
  class Application {
    stage = new pixi.Container()
    renderer: unknown = undefined
    canvas: HTMLCanvasElement | null = null
    screen = { width: 800, height: 600 }
    async init(options: { canvas: HTMLCanvasElement }) {
      await init.gate
      this.canvas = options.canvas
      this.renderer = {
        name: 'webgl',
        on: () => undefined,
        off: () => undefined,
        events: { setTargetElement: () => undefined },
        screen: { width: 800, height: 600 },
      }
    }
    render() {}
    stop() {}
    start() {}
    destroy() {}
  }
  return { ...pixi, Application }
})

// The web fonts' files are the editor's business, not this test's.
vi.mock('../../src/features/editor/fonts/use-fonts.ts', () => ({
  useCanvasFontFamily: () => 'sans-serif',
}))

import EditorCanvas from '../../src/features/editor/canvas/editor-canvas.tsx'
import { EditorStore } from '../../src/features/editor/model/editor-store.ts'
import { I18nProvider } from '@lingui/react'
import { i18n } from '../../src/app/i18n.ts'

const texts = { text: 'Т', button: 'К', gift: 'П', priceButton: 'К', subscribeAction: 'З' }
const BG = { id: 10, project_id: 1, image_url: '', width: 1600, height: 900, position: 0 }

// The canvas's probe is part of the test build only (src/features/editor/canvas/test-hooks.ts).
beforeEach(() => {
  vi.stubEnv('VITE_TEST_HOOKS', '1')
})
afterEach(() => {
  delete window.__promoEditorCanvas
  vi.unstubAllEnvs()
})

describe('the editor canvas', () => {
  it('draws what its props say after the renderer starts, though they changed while it was starting', async () => {
    act(() => i18n.activate('ru'))
    const store = new EditorStore({ texts, frameWidth: 1200 })
    store.setBackgrounds([BG])
    store.syncFromData([
      {
        id: 7,
        bg_id: BG.id,
        type: 'subscribe',
        x: 0,
        y: 0,
        zindex: 0,
        rotation: 0,
        width: 30,
        specialist_id: 5,
        date: '',
        action: 'Записаться',
      },
    ])
    const props = {
      store,
      backgrounds: [BG],
      kind: 'landing' as const,
      grid: { enabled: false, size: 20 },
      resolveFileUrl: (url: string) => url,
      onController: () => undefined,
      onZoomChange: () => undefined,
      onActiveBackground: () => undefined,
      onContextMenu: () => undefined,
    }
    const view = render(
      <I18nProvider i18n={i18n}>
        <EditorCanvas {...props} specialistName={() => null} />
      </I18nProvider>,
    )
    // The specialists arrive while the renderer is still starting.
    view.rerender(
      <I18nProvider i18n={i18n}>
        <EditorCanvas {...props} specialistName={(id) => (id === 5 ? 'Анна Смирнова' : null)} />
      </I18nProvider>,
    )
    await act(async () => {
      init.release()
      await init.gate
    })
    await vi.waitFor(() => expect(window.__promoEditorCanvas).toBeDefined())
    await act(async () => undefined)
    const [drawn] = window.__promoEditorCanvas!.blocks()
    expect(drawn?.texts[0]).toBe('Анна Смирнова')
  })
})
