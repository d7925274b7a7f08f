import type { BlockType } from '../../domain/block.ts'
import { BLOCK_PANELS } from './blocks/panels.ts'

/** A block type's icon (`blocks/<type>-panel.tsx`). */
export function BlockIcon({ type, size = 18 }: { type: BlockType; size?: number }) {
  const Icon = BLOCK_PANELS[type].icon
  return <Icon size={size} stroke={1.7} aria-hidden style={{ flexShrink: 0 }} />
}
