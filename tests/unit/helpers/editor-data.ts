import type { Specialist } from '../../../src/domain/directory.ts'
import type { Size } from '../../../src/domain/geometry.ts'
import type { Background, Project } from '../../../src/domain/project.ts'
import type { EditorData, LocalBlock } from '../../../src/features/editor/editor-data.ts'

/** An in-memory EditorData: what the editor saved, deleted and uploaded, for assertions. */
export interface FakeEditorData extends EditorData {
  saved: LocalBlock[][]
  deleted: string[][]
  uploads: Blob[]
  addedBackgrounds: { file: Blob; size: Size }[]
}

export function fakeEditorData(
  options: {
    project?: Partial<Project>
    backgrounds?: Background[]
    blocks?: LocalBlock[]
    specialists?: Specialist[]
  } = {},
): FakeEditorData {
  let nextId = -1
  const data: FakeEditorData = {
    project: {
      id: 1,
      workspace_id: 1,
      name: 'Проект',
      type: 1,
      updated_at: '',
      ...options.project,
    },
    backgrounds: options.backgrounds ?? [
      { id: 10, project_id: 1, image_url: '', width: 1600, height: 900, position: 0 },
    ],
    blocks: options.blocks ?? [],
    specialists: options.specialists ?? [],
    saved: [],
    deleted: [],
    uploads: [],
    addedBackgrounds: [],
    async saveBlocks(blocks) {
      data.saved.push(blocks)
      return blocks.map((b) => b.id ?? nextId--)
    },
    async deleteBlocks(keys) {
      data.deleted.push(keys)
    },
    async addBackground(file, size) {
      data.addedBackgrounds.push({ file, size })
      return nextId--
    },
    async uploadFile(file) {
      data.uploads.push(file)
      return `local-file:${data.uploads.length}`
    },
    resolveFileUrl: (url) => url,
    useUploadProgress: () => null,
  }
  return data
}

/** A saved text block on background 10 (id, key and z from `id`), for the layers list. */
export const textBlock = (id: number, text: string) =>
  ({
    id,
    ck: `ck-${id}`,
    bg_id: 10,
    type: 'text',
    x: 0,
    y: 0,
    zindex: id,
    rotation: 0,
    width: 50,
    fontSize: 16,
    font: 'Roboto',
    align: 'center',
    color: '#000000',
    text,
    background: 'transparent',
    name: '',
  }) as unknown as LocalBlock
