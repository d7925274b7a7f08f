import type { Hono } from 'hono'
import { IdBody } from '../../../src/domain/requests.ts'
import { WorkspaceInput, WorkspaceUpdate } from '../../../src/domain/workspace.ts'
import { parseInput } from '../../services/validate.ts'
import type { AppEnv } from '../env.ts'
import { readJson } from '../errors.ts'
import { ifMatch } from '../if-match.ts'
import { productRoutes } from './define.ts'

export function workspaceRoutes(api: Hono<AppEnv>): void {
  const { query, mutation } = productRoutes(api)
  query('/workspace/list', async (c) =>
    c.json(await c.get('services').workspaces.list(c.get('user').id)),
  )
  mutation('/workspace/add', async (c) => {
    const { name } = parseInput(WorkspaceInput, await readJson(c))
    return c.json(await c.get('services').workspaces.add(c.get('user').id, name))
  })
  mutation('/workspace/update', async (c) => {
    const expected = ifMatch(c)
    const { id, name } = parseInput(WorkspaceUpdate, await readJson(c))
    return c.json(await c.get('services').workspaces.rename(c.get('user').id, id, name, expected))
  })
  mutation('/workspace/delete', async (c) => {
    const expected = ifMatch(c)
    const { id } = parseInput(IdBody, await readJson(c))
    await c.get('services').workspaces.delete(c.get('user').id, id, expected)
    return c.json({ id, deleted: true })
  })
}
