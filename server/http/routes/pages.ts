import type { Hono } from 'hono'
import { PublishInput, SetSlugInput } from '../../../src/domain/publish.ts'
import { parseInput } from '../../services/validate.ts'
import { json } from '../answer.ts'
import type { AppEnv } from '../env.ts'
import { readJson } from '../errors.ts'
import { productRoutes } from './define.ts'

/** Publishing a project (docs/API.md, "Published pages"); the pages themselves are /p/{slug}. */
export function pageApiRoutes(api: Hono<AppEnv>): void {
  const { mutation } = productRoutes(api)
  mutation('/project/publish', async (c) => {
    const { project_id } = parseInput(PublishInput, await readJson(c))
    return json(await c.get('services').pages.publish(c.get('user').id, project_id))
  })
  mutation('/project/unpublish', async (c) => {
    const { project_id } = parseInput(PublishInput, await readJson(c))
    return json(await c.get('services').pages.unpublish(c.get('user').id, project_id))
  })
  mutation('/project/set_slug', async (c) => {
    const { project_id, slug } = parseInput(SetSlugInput, await readJson(c))
    return json(await c.get('services').pages.setSlug(c.get('user').id, project_id, slug))
  })
}
