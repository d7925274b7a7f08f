// @vitest-environment jsdom
import { Container, Graphics, Sprite, Text, Texture } from 'pixi.js'
import { describe, expect, it } from 'vitest'
import { SceneContainer } from '../../src/features/editor/canvas/scene-container.ts'

/**
 * A deleted block: React removes only its topmost display object and @pixi/react destroys it with
 * `destroy()`, no options (docs/editor.md "Memory after long editing"). What the block holds must go
 * with it: its texts hand their texture back (Pixi's text pipe listens for their `unload`), its
 * graphics free their geometry; a shared picture stays with its owner.
 */
function block(Kind: new () => Container) {
  const container = new Kind()
  const graphics = new Graphics().rect(0, 0, 10, 10).fill(0xff0000)
  const label = new Text({ text: 'Кнопка' })
  const picture = Texture.from({ resource: new Uint8Array(4), width: 1, height: 1 } as never)
  const sprite = new Sprite(picture)
  container.addChild(graphics, label, sprite)
  const unloaded: string[] = []
  label.on('unload', () => unloaded.push('text'))
  return { container, graphics, context: graphics.context, label, sprite, picture, unloaded }
}

describe('the canvas container', () => {
  it('destroys the texts and graphics of a removed block, and not its shared picture', () => {
    const b = block(SceneContainer)
    b.container.destroy()
    expect(b.label.destroyed).toBe(true)
    expect(b.unloaded).toEqual(['text'])
    expect(b.graphics.destroyed).toBe(true)
    expect(b.context.destroyed).toBe(true)
    expect(b.sprite.destroyed).toBe(true)
    expect(b.picture.destroyed).toBe(false)
  })

  it('keeps what Pixi’s own container leaves behind in view (why it exists)', () => {
    const b = block(Container)
    b.container.destroy()
    expect(b.label.destroyed).toBe(false)
    expect(b.unloaded).toEqual([])
    expect(b.context.destroyed).toBe(false)
  })

  it('still takes explicit options', () => {
    const b = block(SceneContainer)
    b.container.destroy({ children: false })
    expect(b.label.destroyed).toBe(false)
  })
})
