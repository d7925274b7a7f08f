import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Submission } from '../../server/services/appeals.ts'
import type { Appeal } from '../../src/domain/appeal.ts'
import { QUERIES } from '../../src/data/queries.ts'
import { createSyncEngine } from '../../src/sync/engine.ts'
import { scopesOf } from '../../src/sync/live-events.ts'
import { deleteAppeal, setAppealStatus } from '../../src/sync/mutators/appeals.ts'
import { json, startHarness, type Harness } from './harness.ts'

// Visitors' requests in the mirror (docs/requests.md): read window by window, their status changed
// through the outbox from the version it was made on, deleted by an admin.
let h: Harness
let projectId = 0
// One server for the file (each takes seconds to start on a loaded machine); every test makes
// requests of its own.
beforeAll(async () => {
  h = await startHarness()
  projectId = (
    await json<{ id: number }>(
      await h.call('POST', '/api/project/add', { workspace_id: h.workspaceId, name: 'Акция' }),
    )
  ).id
})
afterAll(async () => {
  await h.close()
})

/** A request as a published page's form would leave it (the submit route's part is its own test). */
async function arrives(extra: Partial<Submission> = {}): Promise<number> {
  const { id } = await h.server.ready.services.appeals.submit({
    workspace_id: h.workspaceId,
    project_id: projectId,
    block_id: 7,
    kind: 'subscribe',
    name: 'Мария Петрова',
    phone: '+79123456789',
    email: '',
    comment: 'Лучше после обеда',
    specialist_id: null,
    date: '2030-05-01',
    price: null,
    utm: { utm_source: 'vk' },
    referrer: 'https://vk.com/',
    page_url: 'https://promo.example.ru/p/akciya',
    project_name: 'Акция',
    submission_id: randomBytes(8).toString('hex'),
    ip: '203.0.113.7',
    user_agent: 'Mozilla/5.0',
    spam: false,
    hook_url: '',
    ...extra,
  })
  return id
}

const onServer = async (id: number) =>
  json<Appeal>(await h.call('GET', '/api/appeal/get', undefined, { id }))
const refresh = () => h.engine.refresh({ kind: 'appeals', workspaceId: h.workspaceId })

describe('visitors’ requests in the mirror', () => {
  it('reads every window of the list, newest first, and drops what the server deleted', async () => {
    const ids: number[] = []
    for (let i = 0; i < 5; i += 1) ids.push(await arrives({ name: `Гость ${i}` }))
    // Windows of two: three calls with `before`, then the list is whole.
    const engine = createSyncEngine({
      db: h.db,
      locks: null,
      schedule: () => undefined,
      appealWindow: 2,
    })
    const before = h.sent.length
    await engine.refresh({ kind: 'appeals', workspaceId: h.workspaceId })
    const lists = h.sent.slice(before).filter((s) => s.path === '/api/appeal/list')
    expect(lists).toHaveLength(3)
    const rows = await QUERIES.appeals(h.workspaceId)
    expect(rows.map((r) => r.id)).toEqual([...ids].reverse())
    expect(await QUERIES.appealsHead(h.workspaceId, 2)).toMatchObject({ more: true })
    expect(await QUERIES.newAppealCount(h.workspaceId)).toBe(5)

    await h.call('POST', '/api/appeal/delete', { id: ids[0] })
    await engine.refresh({ kind: 'appeals', workspaceId: h.workspaceId })
    expect((await QUERIES.appeals(h.workspaceId)).map((r) => r.id)).not.toContain(ids[0])
  })

  it('sends a status change with If-Match and takes the server’s answer', async () => {
    const id = await arrives()
    await refresh()
    await setAppealStatus(id, 'in_work')
    // Shown at once, counted as no longer new.
    expect(await QUERIES.appeal(id)).toMatchObject({ status: 'in_work' })
    expect(await QUERIES.newAppealCount(h.workspaceId)).toBe(4)
    expect(await h.engine.replay()).toBe('idle')
    const update = h.sent.findLast((s) => s.path === '/api/appeal/update')
    expect(update?.body).toEqual({ id, status: 'in_work' })
    const server = await onServer(id)
    expect(server).toMatchObject({ status: 'in_work', version: 2 })
    expect(await h.db.appeal.get(id)).toMatchObject({ status: 'in_work', version: 2 })
    expect(await h.db.outbox.count()).toBe(0)
  })

  it('parks a status someone else changed meanwhile as a conflict, both values kept', async () => {
    const id = await arrives()
    await refresh()
    await setAppealStatus(id, 'done')
    await h.call('POST', '/api/appeal/update', { id, status: 'spam' })
    expect(await h.engine.replay()).toBe('idle')
    expect((await onServer(id)).status).toBe('spam')
    const [parked] = await h.db.outbox.where('state').equals('parked').toArray()
    expect(parked).toMatchObject({ table: 'appeal', code: 'conflict' })
    expect(parked?.conflict?.fields).toEqual([{ field: 'status', mine: 'done', theirs: 'spam' }])
    // «Оставить моё» sends it again from the server's version.
    await h.engine.retryEntry(parked!.seq!)
    expect(await h.engine.replay()).toBe('idle')
    expect((await onServer(id)).status).toBe('done')
  })

  it('keeps a status waiting to be sent when the server’s copy comes, and takes its deliveries', async () => {
    const id = await arrives()
    await refresh()
    h.fault.current = (sent) => (sent.path === '/api/appeal/update' ? 'fail-before' : undefined)
    await setAppealStatus(id, 'in_work')
    expect(await h.engine.replay()).toBe('backoff')
    await h.engine.refresh({ kind: 'appeal', workspaceId: h.workspaceId, id })
    expect(await h.db.appeal.get(id)).toMatchObject({ status: 'in_work', version: 1 })
    h.fault.current = null
    expect(await h.engine.replay({ resetBackoff: true })).toBe('idle')
    expect((await onServer(id)).status).toBe('in_work')
  })

  it('deletes a request through the outbox (the workspace’s admin)', async () => {
    const id = await arrives()
    await refresh()
    await deleteAppeal(id)
    expect(await QUERIES.appeal(id)).toBeNull()
    expect(await h.engine.replay()).toBe('idle')
    const res = await h.call('GET', '/api/appeal/get', undefined, { id })
    expect(res.status).toBe(404)
  })

  it('a live event names the one request to read again', () => {
    expect(
      scopesOf({ table: 'appeal', id: 9, version: 1, op: 'update', deliveries: true }, 3),
    ).toEqual([{ kind: 'appeal', workspaceId: 3, id: 9 }])
  })
})
