import { useCallback, useMemo } from 'react'
import { commands } from '../../mirror/commands.ts'
import {
  useBackgrounds,
  useBlocksOfProject,
  useFileUrlResolver,
  useIdRedirect,
  useProject,
  useRecords,
} from '../../mirror/live.ts'
import type { Size } from '../../domain/geometry.ts'
import { useRefresh, useUploadProgress } from '../../sync/client.ts'
import type { EditorData } from './editor-data.ts'

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

  const resolveFileUrl = useFileUrlResolver()
  const addBg = useCallback(
    (file: Blob, size: Size) => commands.addBackground(projectId, file, size),
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
      saveBlocks: commands.saveBlocks,
      deleteBlocks: commands.deleteBlocks,
      addBackground: addBg,
      uploadFile: commands.uploadFile,
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

/** «Сохранить»: the changes are local already; replay the outbox now instead of waiting. */
export { requestSync as sendChangesNow } from '../../sync/client.ts'

/**
 * Where the person's changes are (the toolbar's save state says the header's words) and the
 * changes the server refused (the layers' marks): the sync's status, read here like the rest.
 */
export { useParkedEntries, useSyncStatus } from '../../sync/client.ts'
