import { BLOCK_DEFAULTS as DOMAIN_DEFAULTS, type BlockType } from '../../src/domain/block.ts'

/**
 * What a new block's fields are when `add` leaves them out (docs/API.md, "Blocks"): every field but
 * the geometry — `bg_id`, `x`, `y`, `zindex`, `rotation`, `width`, `height`, `scaleX`, `scaleY`,
 * `fontSize` — which a block cannot do without. They are the block types' own
 * (`src/domain/blocks/<type>.ts`): the colours the editor starts a new block with; texts are empty.
 * An update keeps what is stored instead.
 */
export const BLOCK_DEFAULTS: Record<BlockType, Readonly<Record<string, unknown>>> = DOMAIN_DEFAULTS
