import type { BlockType } from '../../../domain/block.ts'
import type { BlockPanel } from '../inspector/panel-parts.tsx'
import { buttonPanel } from './button-panel.tsx'
import { giftPanel } from './gift-panel.tsx'
import { imagePanel } from './image-panel.tsx'
import { pricePanel } from './price-panel.tsx'
import { subscribePanel } from './subscribe-panel.tsx'
import { textPanel } from './text-panel.tsx'
import { videoPanel } from './video-panel.tsx'

/**
 * Every block type's editor UI: its icon and its inspector panel (docs/editor.md «Adding a block
 * type»). Apart from `BLOCK_DEFINITIONS` (`blocks/index.ts`) so the published page, which draws
 * blocks from their definitions, carries none of the inspector.
 */
export const BLOCK_PANELS: { [T in BlockType]: BlockPanel<T> } = {
  text: textPanel,
  button: buttonPanel,
  image: imagePanel,
  video: videoPanel,
  gift: giftPanel,
  price: pricePanel,
  subscribe: subscribePanel,
}
