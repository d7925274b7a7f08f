import * as v from 'valibot'
import { Deleted } from '../domain/api-error.ts'
import {
  isWidgetType,
  SavedBlockSchema,
  type Block,
  type BlockType,
  type SavedBlock,
} from '../domain/block.ts'
import { request, type IfMatch } from './client.ts'

/** Every block of a background, each with its type. */
export function getItems(bgId: number): Promise<SavedBlock[]> {
  return request('/api/project/get_items', {
    query: { bg_id: bgId },
    schema: v.array(SavedBlockSchema),
  }) as Promise<SavedBlock[]>
}

/**
 * Saves one block (docs/API.md "Blocks"): text/button/image/video `POST /api/{type}/add`, with `id`
 * when the block has one (update); gift/price/subscribe `/add` without id, `/update` with id.
 * Returns the saved block, which always has its id.
 */
export function saveBlock(
  block: Block,
  idempotencyKey: string,
  ifMatch?: IfMatch,
): Promise<SavedBlock> {
  const path =
    isWidgetType(block.type) && block.id !== undefined
      ? `/api/${block.type}/update`
      : `/api/${block.type}/add`
  return request(path, {
    method: 'POST',
    body: block,
    schema: SavedBlockSchema,
    idempotencyKey,
    ifMatch,
  }) as Promise<SavedBlock>
}

/** text/button/image/video via `project/delete_item`; gift/price/subscribe via `/{type}/delete`. */
export function deleteBlock(type: BlockType, id: number, idempotencyKey: string) {
  const path = isWidgetType(type) ? `/api/${type}/delete` : '/api/project/delete_item'
  return request(path, { method: 'POST', body: { id }, schema: Deleted, idempotencyKey })
}
