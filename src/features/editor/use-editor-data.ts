import { useCallback, useMemo } from 'react'
import { addBackground, deleteBlocks, saveBlocks, uploadFile } from '../../data/commands.ts'
import {
  useBackgrounds,
  useBlocksOfProject,
  useFileUrl,
  useIdRedirect,
  useProject,
  useRecords,
} from '../../data/live.ts'
import type { Size } from '../../domain/geometry.ts'
import type { Background } from '../../domain/project.ts'
import { useRefresh, useUploadProgress } from '../../sync/client.ts'
import type { EditorData, LocalBlock } from './editor-data.ts'

/**
 * The one place the editor meets the data layer (the data-layer contract): live queries of the
 * project, its backgrounds, blocks and the workspace's specialists, and the commands that write
 * locally and queue for the server. `undefined` while loading, `null` when the project is unknown.
 */
export function useEditorData(projectId: number): EditorData | null | undefined {
  const project = useProject(projectId)
  const backgrounds = useBackgrounds(projectId)
  const blocks = useBlocksOfProject(projectId)
  const specialists = useRecords('specialist', project ? project.workspace_id : null)
  useRefresh({ kind: 'project', projectId })
  useRefresh(project ? { kind: 'specialist', workspaceId: project.workspace_id } : null)

  const resolved = useLocalFileUrls(localUrlsOf(backgrounds, blocks))
  const resolveFileUrl = useCallback((url: string) => resolved.get(url) ?? url, [resolved])
  const addBg = useCallback(
    (file: Blob, size: Size) => addBackground(projectId, file, size),
    [projectId],
  )

  return useMemo(() => {
    if (project === null) return null
    if (project === undefined || backgrounds === undefined || blocks === undefined) return undefined
    return {
      project,
      backgrounds,
      blocks,
      specialists: specialists ?? [],
      saveBlocks,
      deleteBlocks,
      addBackground: addBg,
      uploadFile,
      resolveFileUrl,
      useUploadProgress,
    }
  }, [project, backgrounds, blocks, specialists, addBg, resolveFileUrl])
}

/**
 * A project created offline has a local id until it syncs; then the editor's address must follow
 * it to the server id (null while there is nothing to follow).
 */
export function useProjectIdRedirect(projectId: number): number | null {
  return useIdRedirect('projects', projectId)
}

const LOCAL_FILE = 'local-file:'
/** Files waiting for upload that the editor resolves at once (more are rare; they show a placeholder). */
const SLOTS = 24

function localUrlsOf(
  backgrounds: readonly Background[] | undefined,
  blocks: readonly LocalBlock[] | undefined,
): string[] {
  const urls = new Set<string>()
  for (const bg of backgrounds ?? [])
    if (bg.image_url.startsWith(LOCAL_FILE)) urls.add(bg.image_url)
  for (const block of blocks ?? []) {
    const url =
      block.type === 'image' ? block.image_url : block.type === 'video' ? block.video_src : ''
    if (url.startsWith(LOCAL_FILE)) urls.add(url)
  }
  return [...urls].sort().slice(0, SLOTS)
}

/**
 * `useFileUrl` resolves one url per call; the editor needs a changing set. A fixed number of calls
 * (SLOTS) keeps the rules of hooks: each slot resolves the url at its index, or '' (passes through).
 */
function useLocalFileUrls(urls: readonly string[]): Map<string, string> {
  const results: string[] = []
  for (let i = 0; i < SLOTS; i += 1) {
    // eslint-disable-next-line react-hooks/rules-of-hooks -- the loop always makes SLOTS calls
    results.push(useFileUrl(urls[i] ?? ''))
  }
  // Memoised by content so the editor's callbacks stay stable between live-query updates.
  const key = JSON.stringify([results, urls])
  return useMemo(() => {
    const [resolvedUrls, sourceUrls] = JSON.parse(key) as [string[], string[]]
    const map = new Map<string, string>()
    sourceUrls.forEach((url, i) => {
      if (resolvedUrls[i]) map.set(url, resolvedUrls[i]!)
    })
    return map
  }, [key])
}

/** «Сохранить»: the changes are local already; replay the outbox now instead of waiting. */
export { requestSync as sendChangesNow } from '../../sync/client.ts'
