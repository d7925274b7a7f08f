import { useCallback, useEffect, useRef, useState } from 'react'
import { errorMessage } from '../../ui/field-error.ts'
import { notifyError } from '../../ui/notify.tsx'
import { draftStorage, newDraftKey, writeDraft } from './draft.ts'
import type { EditorData } from './editor-data.ts'
import type { EditorStore } from './model/editor-store.ts'

export type SaveState = 'saved' | 'pending' | 'saving' | 'error'

/** Pause after the last edit before the changes go to the data layer. */
export const AUTOSAVE_DELAY_MS = 800

/**
 * Hands the editor's changes to the data layer: after a short pause, on demand («Сохранить»), when
 * the page is hidden and when the editor closes. One save at a time; edits made meanwhile go in the
 * next one. A failure keeps the changes and says so. While changes are on their way, they are also
 * kept as a draft in localStorage for `owner` (the signed-in person), so a page that goes away
 * before the data layer has them loses nothing (draft.ts).
 */
export function useAutosave(
  store: EditorStore,
  data: Pick<EditorData, 'saveBlocks' | 'deleteBlocks'>,
  owner: number | null,
  delay = AUTOSAVE_DELAY_MS,
): { status: SaveState; saveNow: () => Promise<void> } {
  const [status, setStatus] = useState<SaveState>('saved')
  const running = useRef<Promise<void> | null>(null)
  const again = useRef(false)
  const dataRef = useRef(data)
  useEffect(() => {
    dataRef.current = data
  }, [data])
  const [draftKey] = useState(newDraftKey)
  // What the data layer may not have yet, kept synchronously before anything is handed over.
  const keepDraft = useCallback(() => {
    if (owner === null) return
    writeDraft(draftStorage(), draftKey, { user: owner, ...store.unsavedChanges() })
  }, [store, owner, draftKey])

  const saveNow = useCallback((): Promise<void> => {
    keepDraft()
    if (running.current) {
      again.current = true
      return running.current
    }
    const run = async () => {
      do {
        again.current = false
        const batch = store.takeChanges()
        if (batch.blocks.length === 0 && batch.deleteKeys.length === 0) break
        setStatus('saving')
        if (batch.deleteKeys.length > 0) {
          await dataRef.current.deleteBlocks(batch.deleteKeys)
          store.markDeleted(batch.deleteKeys)
        }
        if (batch.blocks.length > 0) {
          await dataRef.current.saveBlocks(batch.blocks)
          store.markSaved(batch)
        }
      } while (again.current)
    }
    const promise = run()
      .then(
        () => setStatus(store.getState().unsaved > 0 ? 'pending' : 'saved'),
        (error: unknown) => {
          setStatus('error')
          notifyError(errorMessage(error))
        },
      )
      .finally(keepDraft)
    running.current = promise.finally(() => {
      running.current = null
    })
    return running.current
  }, [store, keepDraft])

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const off = store.subscribe(() => {
      if (store.getState().unsaved === 0) return
      setStatus((s) => (s === 'saving' ? s : 'pending'))
      clearTimeout(timer)
      timer = setTimeout(() => void saveNow(), delay)
    })
    const onHide = () => {
      if (document.visibilityState === 'hidden') void saveNow()
    }
    const onPageHide = () => void saveNow()
    document.addEventListener('visibilitychange', onHide)
    window.addEventListener('pagehide', onPageHide)
    return () => {
      off()
      clearTimeout(timer)
      document.removeEventListener('visibilitychange', onHide)
      window.removeEventListener('pagehide', onPageHide)
      // Leaving the editor: whatever is left goes now.
      void saveNow()
    }
  }, [store, saveNow, delay])

  return { status, saveNow }
}
