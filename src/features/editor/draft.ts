import * as v from 'valibot'
import { BLOCK_SCHEMAS, BLOCK_TYPES, type BlockSchema, type BlockType } from '../../domain/block.ts'
import type { LocalBlock } from './editor-data.ts'

/**
 * The editor's changes not yet confirmed by the data layer, kept in localStorage (docs/editor.md
 * "Edits survive the page going away"). The editor hands its changes to the data layer after a
 * short pause, through the sync worker; a page reloaded, closed or killed in that pause (or while
 * the worker is still writing) would lose them. localStorage is written synchronously, so the
 * draft is on the device the moment the page is hidden. The next start gives every draft of the
 * signed-in person to the data layer, which upserts blocks by their client key (saving a block it
 * already holds at those values sends nothing), and then removes the draft.
 */

const PREFIX = 'promo-builder:editor-draft:'

/** Drafts of editors open in this page: theirs to keep, not the start's to restore. */
const ownKeys = new Set<string>()

/** Local ids are negative, so a stored block is checked by its type's shape with any id. */
function withLocalIds<E extends v.ObjectEntries>(schema: v.ObjectSchema<E, undefined>) {
  return v.object({
    ...schema.entries,
    id: v.optional(v.number()),
    bg_id: v.number(),
    ck: v.string(),
  })
}

/** Each type's draft schema (distributed over the types: a variant of them). */
type DraftSchema<T extends BlockType> = T extends BlockType
  ? ReturnType<typeof withLocalIds<(typeof BLOCK_SCHEMAS)[T]['entries']>>
  : never

const DraftBlock = v.variant(
  'type',
  BLOCK_TYPES.map((type) =>
    withLocalIds(BLOCK_SCHEMAS[type] as BlockSchema),
  ) as DraftSchema<BlockType>[],
)

const Draft = v.object({
  user: v.number(),
  blocks: v.array(DraftBlock),
  deleteKeys: v.array(v.string()),
})

export interface EditorDraft {
  /** Whose edits these are: another person's draft is never sent under a new sign-in. */
  user: number
  /** Blocks with unsaved edits, each with its client key. */
  blocks: LocalBlock[]
  /** Client keys of blocks deleted in the editor and not yet in the data layer. */
  deleteKeys: string[]
}

/** localStorage, or null where storage is blocked (privacy settings): then there is no draft. */
export function draftStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

/** A key of its own for each open editor (a page, an editor opened anew), so none overwrites another. */
export function newDraftKey(): string {
  const key = PREFIX + crypto.randomUUID()
  ownKeys.add(key)
  return key
}

/** Stores the draft under `key`, or removes it when nothing is unsaved. Never throws. */
export function writeDraft(storage: Storage | null, key: string, draft: EditorDraft): void {
  try {
    if (draft.blocks.length === 0 && draft.deleteKeys.length === 0) storage?.removeItem(key)
    else storage?.setItem(key, JSON.stringify(draft))
  } catch {
    // Quota or privacy errors: the edits still go to the data layer as usual.
  }
}

export function removeDraft(storage: Storage | null, key: string): void {
  try {
    storage?.removeItem(key)
  } catch {
    // Nothing to do: a draft left behind is given to the data layer again, which changes nothing.
  }
}

/**
 * Every stored draft with its key. One that cannot be read (damaged, written by another version)
 * comes back as null, so the caller can drop it.
 */
export function readDrafts(storage: Storage | null): { key: string; draft: EditorDraft | null }[] {
  if (!storage) return []
  const drafts: { key: string; draft: EditorDraft | null }[] = []
  try {
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i)
      if (key === null || !key.startsWith(PREFIX)) continue
      drafts.push({ key, draft: parseDraft(storage.getItem(key)) })
    }
  } catch {
    return drafts
  }
  return drafts
}

function parseDraft(raw: string | null): EditorDraft | null {
  if (raw === null) return null
  try {
    const parsed = v.safeParse(Draft, JSON.parse(raw))
    return parsed.success ? parsed.output : null
  } catch {
    return null
  }
}

export interface DraftSink {
  saveBlocks(blocks: LocalBlock[]): Promise<unknown>
  deleteBlocks(keys: string[]): Promise<void>
}

/**
 * Gives the signed-in person's drafts to the data layer and removes each once it is stored there.
 * Drafts of anyone else are removed unsent (the device now holds the new person's data, as the
 * mirror does); unreadable ones too. A draft whose write fails stays for the next start.
 */
export async function restoreDrafts(
  storage: Storage | null,
  user: number,
  sink: DraftSink,
): Promise<number> {
  let restored = 0
  for (const { key, draft } of readDrafts(storage)) {
    if (ownKeys.has(key)) continue
    if (draft === null || draft.user !== user) {
      removeDraft(storage, key)
      continue
    }
    try {
      if (draft.deleteKeys.length > 0) await sink.deleteBlocks(draft.deleteKeys)
      if (draft.blocks.length > 0) await sink.saveBlocks(draft.blocks)
      removeDraft(storage, key)
      restored += 1
    } catch (error) {
      console.error(error)
    }
  }
  return restored
}
