import type { Hono } from 'hono'
import { ITEM_BLOCK_TYPES, WIDGET_BLOCK_TYPES } from '../../../src/domain/block.ts'
import { ProjectInput, ProjectRename, ProjectSetType } from '../../../src/domain/project.ts'
import {
  BackgroundQuery,
  BackgroundSizeFields,
  IdBody,
  IdQuery,
  ProjectQuery,
  WorkspaceQuery,
} from '../../../src/domain/requests.ts'
import { PROJECT_TYPES } from '../../services/projects.ts'
import { parseInput } from '../../services/validate.ts'
import type { AppEnv } from '../env.ts'
import { readJson } from '../errors.ts'
import { ifMatch } from '../if-match.ts'
import { productRoutes } from './define.ts'
import { json } from '../answer.ts'

/** Uploads are received as they stream, held to their limits (server/http/upload-body.ts). */
export function projectRoutes(api: Hono<AppEnv>): void {
  const { query, mutation, upload } = productRoutes(api)

  query('/project_types/list', async () => json(PROJECT_TYPES))
  query('/project/list', async (c) => {
    const { workspace_id } = parseInput(WorkspaceQuery, c.req.query())
    return json(await c.get('services').projects.list(c.get('user').id, workspace_id))
  })
  query('/project/get', async (c) => {
    const { project_id } = parseInput(ProjectQuery, c.req.query())
    return json(await c.get('services').projects.get(c.get('user').id, project_id))
  })
  query('/project/get_items', async (c) => {
    const { bg_id } = parseInput(BackgroundQuery, c.req.query())
    return json(await c.get('services').blocks.list(c.get('user').id, bg_id))
  })
  mutation('/project/add', async (c) => {
    const input = parseInput(ProjectInput, await readJson(c))
    const services = c.get('services')
    return json(await services.projects.add(c.get('user').id, input.workspace_id, input.name))
  })
  mutation('/project/rename', async (c) => {
    const expected = ifMatch(c)
    const { id, name } = parseInput(ProjectRename, await readJson(c))
    return json(await c.get('services').projects.rename(c.get('user').id, id, name, expected))
  })
  mutation('/project/set_type', async (c) => {
    const expected = ifMatch(c)
    const { project_id, type } = parseInput(ProjectSetType, await readJson(c))
    const { projects } = c.get('services')
    return json(await projects.setType(c.get('user').id, project_id, type, expected))
  })
  // GETs, but they change data: they go through Idempotency-Key like any mutation
  // (docs/API.md "Idempotency-Key").
  mutation(
    '/project/copy',
    async (c) => {
      const { id } = parseInput(IdQuery, c.req.query())
      return json(await c.get('services').projects.copy(c.get('user').id, id))
    },
    'GET',
  )
  mutation(
    '/project/delete',
    async (c) => {
      const expected = ifMatch(c)
      const { id } = parseInput(IdQuery, c.req.query())
      await c.get('services').projects.delete(c.get('user').id, id, expected)
      return json({ id, deleted: true })
    },
    'GET',
  )
  upload('/project/add_bg', false, async (c) => {
    const received = c.get('upload')
    const size = parseInput(BackgroundSizeFields, received.fields)
    const services = c.get('services')
    return json(
      await services.projects.addBackground(c.get('user').id, size.project_id, received, size),
    )
  })
  mutation('/project/delete_bg', async (c) => {
    const expected = ifMatch(c)
    const { id } = parseInput(IdBody, await readJson(c))
    await c.get('services').projects.deleteBackground(c.get('user').id, id, expected)
    return json({ id, deleted: true })
  })
  // Image blocks and photos send images; video blocks send MP4 or WebM (their own, larger limit).
  upload('/image/upload', true, async (c) => {
    const { url } = await c.get('services').uploads.storeMedia(c.get('user').id, c.get('upload'))
    return json({ url })
  })

  // Blocks (docs/API.md "Blocks"): text/button/image/video save with /add (id = update) and delete
  // with project/delete_item; gift/price/subscribe use /add and /update and their own /delete.
  for (const type of ITEM_BLOCK_TYPES) {
    mutation(`/${type}/add`, async (c) => {
      const expected = ifMatch(c)
      const body = await readJson(c)
      const { blocks } = c.get('services')
      return json(await blocks.save(c.get('user').id, type, body, 'upsert', expected))
    })
  }
  mutation('/project/delete_item', async (c) => {
    const expected = ifMatch(c)
    const { id } = parseInput(IdBody, await readJson(c))
    await c.get('services').blocks.delete(c.get('user').id, id, ITEM_BLOCK_TYPES, expected)
    return json({ id, deleted: true })
  })
  for (const type of WIDGET_BLOCK_TYPES) {
    mutation(`/${type}/add`, async (c) => {
      const expected = ifMatch(c)
      const body = await readJson(c)
      const { blocks } = c.get('services')
      return json(await blocks.save(c.get('user').id, type, body, 'upsert', expected))
    })
    mutation(`/${type}/update`, async (c) => {
      const expected = ifMatch(c)
      const body = await readJson(c)
      const { blocks } = c.get('services')
      return json(await blocks.save(c.get('user').id, type, body, 'update', expected))
    })
    mutation(`/${type}/delete`, async (c) => {
      const expected = ifMatch(c)
      const { id } = parseInput(IdBody, await readJson(c))
      await c.get('services').blocks.delete(c.get('user').id, id, [type], expected)
      return json({ id, deleted: true })
    })
  }
}
