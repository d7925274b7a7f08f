import type { Hono } from 'hono'
import { IdBody, IdQuery, WorkspaceQuery } from '../../../src/domain/requests.ts'
import { RECORD_RULES } from '../../services/records.ts'
import { parseInput } from '../../services/validate.ts'
import type { RecordKind } from '../../storage/records.ts'
import { json, jsonText } from '../answer.ts'
import type { AppEnv } from '../env.ts'
import { readJson } from '../errors.ts'
import { ifMatch } from '../if-match.ts'
import { productRoutes } from './define.ts'

/**
 * amo, bitrix, department, location, specialist: the same seven calls
 * (docs/API.md "Integrations and directory").
 */
export function recordRoutes(api: Hono<AppEnv>): void {
  const { query, mutation } = productRoutes(api)
  for (const kind of Object.keys(RECORD_RULES) as RecordKind[]) {
    const rules = RECORD_RULES[kind]
    query(`/${kind}/list`, async (c) => {
      const { workspace_id } = parseInput(WorkspaceQuery, c.req.query())
      const bytes = await c.get('services').records.listJson(kind, c.get('user').id, workspace_id)
      return jsonText(bytes)
    })
    query(`/${kind}/get`, async (c) => {
      const { id } = parseInput(IdQuery, c.req.query())
      return jsonText(await c.get('services').records.getJson(kind, c.get('user').id, id))
    })
    mutation(`/${kind}/add`, async (c) => {
      const input = parseInput(rules.input, await readJson(c)) as { workspace_id: number }
      return json(await c.get('services').records.add(kind, c.get('user').id, input))
    })
    mutation(`/${kind}/update`, async (c) => {
      const expected = ifMatch(c)
      const input = parseInput(rules.update, await readJson(c)) as { id: number }
      const services = c.get('services')
      return json(await services.records.update(kind, c.get('user').id, input, expected))
    })
    mutation(`/${kind}/delete`, async (c) => {
      const expected = ifMatch(c)
      const { id } = parseInput(IdBody, await readJson(c))
      await c.get('services').records.delete(kind, c.get('user').id, id, expected)
      return json({ id, deleted: true })
    })
    if (rules.toggles) {
      for (const [action, enabled] of [
        ['disable', false],
        ['able', true],
      ] as const) {
        mutation(`/${kind}/${action}`, async (c) => {
          const expected = ifMatch(c)
          const { id } = parseInput(IdBody, await readJson(c))
          const { records } = c.get('services')
          return json(await records.setEnabled(kind, c.get('user').id, id, enabled, expected))
        })
      }
    }
  }
}
