// @vitest-environment jsdom
import { Texture, type Renderer } from 'pixi.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  PixelText,
  paragraphsResting,
  type PixelTextSpec,
} from '../../src/features/editor/canvas/pixel-text.ts'
import { SceneContainer } from '../../src/features/editor/canvas/scene-container.ts'

/**
 * A paragraph on the canvas owns its picture (docs/editor.md «Canvas and preview, pixel for
 * pixel»): it must go with the paragraph, and a browser that refuses a 2D canvas gets a paragraph
 * drawn as nothing, never an error out of the canvas.
 */
function spec(text: string, lines: string[] = [text]): PixelTextSpec {
  return {
    text,
    lines,
    lineWidths: lines.map((line) => line.length * 8),
    x: 10.3,
    y: 20.6,
    width: 120,
    align: 0,
    baseline: 12,
    lineHeight: 16,
    fontSize: 14,
    fontAt: (size) => `${size}px sans-serif`,
    color: '#112233',
  }
}

/** jsdom has no 2D canvas: one that records what is written, or none at all. */
function contexts() {
  const written: string[] = []
  let refuse = false
  const getContext = vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() =>
    refuse
      ? null
      : {
          font: '',
          fillStyle: '',
          textBaseline: '',
          fillText: (line: string) => written.push(line),
        }) as never)
  return { written, getContext, refuse: () => (refuse = true) }
}

/** One frame of the renderer at `resolution` device pixels per CSS pixel. */
function frame(text: PixelText, resolution = 1) {
  text.onRender?.({ resolution } as Renderer)
}

function onCanvas(s: PixelTextSpec) {
  const block = new SceneContainer()
  const text = new PixelText({ spec: s })
  block.addChild(text)
  return { block, text }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('a paragraph on the canvas', () => {
  it('draws its lines into a picture of its own, freed with its canvas when its block goes', () => {
    const { written } = contexts()
    const { block, text } = onCanvas(spec('Записаться', ['Записаться', 'сейчас']))
    frame(text)
    expect(written).toEqual(['Записаться', 'сейчас'])
    const picture = text.texture
    expect(picture).not.toBe(Texture.EMPTY)
    const canvas = picture.source.resource as HTMLCanvasElement
    expect(canvas.width).toBeGreaterThan(0)
    block.destroy()
    expect(picture.destroyed).toBe(true)
    expect(canvas.width).toBe(0)
  })

  it('empties its canvas too when destroyed with its texture by Pixi’s own option', () => {
    contexts()
    const { block, text } = onCanvas(spec('Кнопка'))
    frame(text)
    const picture = text.texture
    const canvas = picture.source.resource as HTMLCanvasElement
    block.destroy({ children: true, texture: true, textureSource: true })
    expect(picture.destroyed).toBe(true)
    expect(canvas.width).toBe(0)
  })

  it('frees the last picture when it is drawn again for a new text', () => {
    contexts()
    const { text } = onCanvas(spec('Старый'))
    frame(text)
    const before = text.texture
    text.spec = spec('Новый')
    frame(text)
    expect(before.destroyed).toBe(true)
    expect(text.texture.destroyed).toBe(false)
    expect(text.texture).not.toBe(Texture.EMPTY)
  })

  it('does nothing before a frame while it does not show (a world hidden by a pan’s picture)', () => {
    const { written } = contexts()
    const { block, text } = onCanvas(spec('Скрытый'))
    const world = new SceneContainer()
    world.addChild(block)
    world.visible = false
    // The view moves the hidden world by a fraction of a pixel at every frame: nothing is drawn,
    // and no paragraph waits for the view to rest.
    for (let i = 0; i < 3; i += 1) {
      world.x = 0.3 * i
      frame(text)
    }
    expect(written).toEqual([])
    expect(paragraphsResting()).toBe(0)
    expect(text.texture).toBe(Texture.EMPTY)
    // Shown again, it is drawn for the view at once.
    world.visible = true
    frame(text)
    expect(written).toEqual(['Скрытый'])
    // Left out of a frame limited to another place (not renderable), it is not measured either.
    const measured = vi.spyOn(block, 'getGlobalTransform')
    block.renderable = false
    world.x = 5.5
    frame(text)
    expect(measured).not.toHaveBeenCalled()
    block.renderable = true
    frame(text)
    expect(measured).toHaveBeenCalled()
  })

  it('takes the same paragraph again as no change: nothing drawn again, no frame asked', () => {
    contexts()
    const { text } = onCanvas(spec('Тот же'))
    frame(text)
    const before = text.texture
    const update = vi.spyOn(text as unknown as { onViewUpdate(): void }, 'onViewUpdate')
    text.spec = spec('Тот же')
    frame(text)
    expect(update).not.toHaveBeenCalled()
    expect(text.texture).toBe(before)
    // Any difference is a change: the colour, a line's width, the font.
    for (const changed of [
      { ...spec('Тот же'), color: '#445566' },
      { ...spec('Тот же'), lineWidths: [41] },
      { ...spec('Тот же'), fontAt: (size: number) => `bold ${size}px sans-serif` },
    ]) {
      update.mockClear()
      text.spec = changed
      expect(update).toHaveBeenCalledTimes(1)
    }
  })

  it('shows nothing, and no stale picture, where the browser refuses a 2D canvas', () => {
    const c = contexts()
    const { text } = onCanvas(spec('Старый'))
    frame(text)
    const before = text.texture
    c.refuse()
    text.spec = spec('Новый')
    expect(() => frame(text)).not.toThrow()
    expect(text.texture).toBe(Texture.EMPTY)
    expect(before.destroyed).toBe(true)
    expect(text.text).toBe('Новый')
    // Not asked again on every frame while nothing changed.
    const asked = c.getContext.mock.calls.length
    frame(text)
    expect(c.getContext.mock.calls.length).toBe(asked)
  })

  it('draws nothing for a text measured as no line (no 2D canvas to measure it with)', () => {
    const c = contexts()
    const { text } = onCanvas(spec('Анна Смирнова', []))
    expect(() => frame(text)).not.toThrow()
    expect(c.getContext).not.toHaveBeenCalled()
    expect(text.texture).toBe(Texture.EMPTY)
    expect(text.text).toBe('Анна Смирнова')
  })
})
