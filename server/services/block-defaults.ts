import type { BlockType } from '../../src/domain/block.ts'

/**
 * What a new block's fields are when `add` leaves them out (docs/API.md, "Blocks"): every field but
 * the geometry — `bg_id`, `x`, `y`, `zindex`, `rotation`, `width`, `height`, `scaleX`, `scaleY`,
 * `fontSize` — which a block cannot do without. The colours are the app's own for a new block;
 * texts are empty. An update keeps what is stored instead.
 */
export const BLOCK_DEFAULTS: Record<BlockType, Record<string, unknown>> = {
  text: {
    font: 'Roboto',
    align: 'center',
    color: '#212529',
    text: '',
    background: 'transparent',
    name: '',
  },
  button: {
    btn_type: 'link',
    btn_type_value: '',
    name: '',
    border_width: 0,
    border_color: '#1c7ed6',
    font: 'Roboto',
    align: 'center',
    color: '#ffffff',
    background: '#228be6',
    text: '',
  },
  image: { name: '', image_url: '' },
  video: { video_url: '', video_src: '', name: '' },
  gift: { color: '#e64980', text: '', name: '', button_url: '', button_hook_url: '' },
  price: { color: '#2b8a3e', text: '', button_text: '' },
  subscribe: { specialist_id: null, date: '', action: '' },
}
