import type { BlockOf } from '../../src/domain/block.ts'
import type { LocalBlock } from '../../src/features/editor/editor-data.ts'
import { defaultBlock } from '../../src/features/editor/model/block-shape.ts'

export const BG = { width: 1600, height: 900 }
const texts = { text: 'Т', button: 'К', gift: 'П', priceButton: 'К', subscribeAction: 'З' }

/** A gift block on background `bg_id` 10 unless the patch says otherwise. */
export const gift = (patch: Partial<BlockOf<'gift'> & { ck: string }> = {}): LocalBlock => ({
  ...(defaultBlock('gift', 10, BG, 0, texts) as BlockOf<'gift'>),
  ...patch,
})
