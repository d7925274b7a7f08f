import { payloadFields } from '../../src/data/entries.ts'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { addBackground } from '../../src/sync/mutators/backgrounds.ts'
import { deleteBlocks, saveBlocks } from '../../src/sync/mutators/blocks.ts'
import { uploadFile } from '../../src/sync/mutators/files.ts'
import {
  copyProject,
  createProject,
  renameProject,
  setProjectType,
} from '../../src/sync/mutators/projects.ts'
import { createRecord, deleteRecord, updateRecord } from '../../src/sync/mutators/records.ts'
import { isLocalId } from '../../src/data/ids.ts'
import { readSyncMeta, storeAuthToken } from '../../src/data/sync-state.ts'
import type { LocalBlock } from '../../src/data/types.ts'
import type { SavedBlock } from '../../src/domain/block.ts'
import { pngImage } from '../server/helpers.ts'
import { createSyncEngine } from '../../src/sync/engine.ts'
import type { LockManagerLike } from '../../src/sync/lock.ts'
import { json, sharedServer, startHarness, type Harness } from './harness.ts'

let h: Harness
const server = sharedServer()
beforeEach(async () => {
  h = await startHarness(server)
})
afterEach(async () => {
  await h.close()
})

const specialistFields = (department_id: number | null, location_id: number | null) => ({
  name: 'Анна Смирнова',
  position: 'Терапевт',
  department_id,
  location_id,
  phone: '+7 900 000-00-00',
  email: 'anna@example.ru',
  photo_url: '',
  description: '',
})

async function serverList<T>(kind: string): Promise<T[]> {
  return json<T[]>(
    await h.call('GET', `/api/${kind}/list`, undefined, { workspace_id: h.workspaceId }),
  )
}

/** A project with one background on the server, mirrored locally. Returns the background id. */
async function projectWithBackground(): Promise<{ projectId: number; bgId: number }> {
  const project = await json<{ id: number }>(
    await h.call('POST', '/api/project/add', { workspace_id: h.workspaceId, name: 'Акция' }),
  )
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(pngImage(16, 9))], { type: 'image/png' }), 'bg.png')
  form.append('project_id', String(project.id))
  const bg = await json<{ id: number }>(await h.call('POST', '/api/project/add_bg', form))
  await h.engine.refresh({ kind: 'project', projectId: project.id })
  return { projectId: project.id, bgId: bg.id }
}

const text = (bgId: number, extra: Record<string, unknown> = {}): LocalBlock =>
  ({
    type: 'text',
    bg_id: bgId,
    x: 0,
    y: 0,
    zindex: 1,
    rotation: 0,
    width: 40,
    fontSize: 6,
    font: 'Inter',
    align: 'center',
    color: '#112233',
    text: 'Скидка',
    background: 'transparent',
    name: 'Заголовок',
    ...extra,
  }) as LocalBlock

describe('replay against the reference server', () => {
  it('offline creates of a department, a location and a specialist referring to them arrive with server ids', async () => {
    const dept = await createRecord('department', h.workspaceId, {
      name: 'Терапия',
      description: '',
    })
    const loc = await createRecord('location', h.workspaceId, {
      name: 'Центр',
      address: 'Тверская, 1',
      phone: '',
    })
    const spec = await createRecord('specialist', h.workspaceId, specialistFields(dept, loc))
    expect([dept, loc, spec].every(isLocalId)).toBe(true)

    expect(await h.engine.replay()).toBe('idle')

    const [serverDept] = await serverList<{ id: number }>('department')
    const [serverLoc] = await serverList<{ id: number }>('location')
    const [serverSpec] = await serverList<{
      id: number
      department_id: number
      location_id: number
    }>('specialist')
    expect(serverSpec).toMatchObject({ department_id: serverDept!.id, location_id: serverLoc!.id })
    // The mirror was re-keyed, references rewritten, and the outbox is empty.
    const local = await h.db.specialist.toArray()
    expect(local).toHaveLength(1)
    expect(local[0]).toMatchObject({
      id: serverSpec!.id,
      department_id: serverDept!.id,
      location_id: serverLoc!.id,
    })
    expect(await h.db.department.get(dept)).toBeUndefined()
    expect(await h.db.outbox.count()).toBe(0)
    // The row keeps the key it was born with: its local id still names it.
    expect(await h.db.specialist.where('ck').equals(String(spec)).primaryKeys()).toEqual([
      serverSpec!.id,
    ])
    expect((await readSyncMeta(h.db)).lastSyncedAt).not.toBeNull()
  })

  it('a re-key writes no queued entry: a chain whose add is answered mid-chain replays by key', async () => {
    // Queued entries name records by client key (docs/SYNC.md "Ids"): the add's answer changes
    // the row's id only. Every rewrite of a queued entry (not the mark that it is being sent)
    // from the add's answer to the next request is counted.
    let counting = false
    let rewrites = 0
    h.db.outbox.hook('updating', (mods) => {
      if (counting && Object.keys(mods as object).some((f) => f !== 'sent')) rewrites += 1
    })
    h.db.outbox.hook('creating', () => {
      if (counting) rewrites += 1
    })
    const dep = await createRecord('department', h.workspaceId, {
      name: 'Неврология',
      description: '',
    })
    const inner = globalThis.fetch
    let specialistId = 0
    globalThis.fetch = async (input, init) => {
      const path = new URL(input instanceof Request ? input.url : String(input)).pathname
      counting = false
      if (path === '/api/department/add') {
        // The person goes on while the add is on its way, by the local id the screen holds.
        await updateRecord('department', dep, { description: 'Второй этаж' })
        specialistId = await createRecord('specialist', h.workspaceId, specialistFields(dep, null))
      }
      const response = await inner(input, init)
      counting = path === '/api/department/add'
      // Answered: the screen still holds the local id when the department is deleted.
      if (path === '/api/specialist/add') await deleteRecord('department', dep)
      return response
    }
    try {
      expect(await h.engine.replay()).toBe('idle')
    } finally {
      globalThis.fetch = inner
    }
    expect(rewrites).toBe(0)
    expect(await h.db.outbox.count()).toBe(0)
    const writes = h.delivered.filter((s) => s.method === 'POST')
    const [added] = writes
    const server = (added!.body ?? {}) as Record<string, unknown>
    expect(server.name).toBe('Неврология')
    const depId = (await serverList<{ id: number }>('department')).length
    expect(depId).toBe(0)
    expect(writes.map((s) => s.path)).toEqual([
      '/api/department/add',
      '/api/department/update',
      '/api/specialist/add',
      '/api/department/delete',
    ])
    const ids = new Set(
      writes.slice(1).map((s) => {
        const body = s.body as Record<string, unknown>
        return s.path === '/api/specialist/add' ? body.department_id : body.id
      }),
    )
    // One server id everywhere, never the local one.
    expect(ids.size).toBe(1)
    expect([...ids][0]).toBeGreaterThan(0)
    const [specialist] = await serverList<{ name: string; department_id: number | null }>(
      'specialist',
    )
    expect(specialist).toMatchObject({ name: 'Анна Смирнова', department_id: null })
    expect(isLocalId(specialistId)).toBe(true)
    expect(await h.db.specialist.where('ck').equals(String(specialistId)).first()).toMatchObject({
      name: 'Анна Смирнова',
      department_id: null,
    })
  })

  it('20 edits of one block between two replays send one request with the latest state', async () => {
    const { bgId } = await projectWithBackground()
    let [id] = await saveBlocks([text(bgId)])
    for (let i = 1; i <= 20; i += 1) [id] = await saveBlocks([text(bgId, { id, x: i })])
    expect(await h.engine.replay()).toBe('idle')
    const saves = h.sent.filter((s) => s.path === '/api/text/add')
    expect(saves).toHaveLength(1)
    expect(saves[0]!.body).toMatchObject({ x: 20 })
    expect(saves[0]!.body).not.toHaveProperty('id')

    const [saved] = await json<SavedBlock[]>(
      await h.call('GET', '/api/project/get_items', undefined, { bg_id: bgId }),
    )
    expect(saved).toMatchObject({ x: 20 })
    // Now a saved block: 20 more edits → one update (with its id).
    h.sent.length = 0
    for (let i = 1; i <= 20; i += 1) await saveBlocks([text(bgId, { id: saved!.id, y: -i })])
    await h.engine.replay()
    const updates = h.sent.filter((s) => s.path === '/api/text/add')
    expect(updates).toHaveLength(1)
    expect(updates[0]!.body).toMatchObject({ id: saved!.id, y: -20 })
  })

  it('an edit or delete that still names a block by the local id its add just replaced goes to the server id', async () => {
    const { bgId } = await projectWithBackground()
    const [localId] = await saveBlocks([text(bgId)])
    expect(await h.engine.replay()).toBe('idle')
    // The editor still holds the local id (its drag started before the add came back).
    const [current] = await saveBlocks([text(bgId, { id: localId, x: 42 })])
    expect(current).toBeGreaterThan(0)
    expect(await h.engine.replay()).toBe('idle')
    let onServer = await json<SavedBlock[]>(
      await h.call('GET', '/api/project/get_items', undefined, { bg_id: bgId }),
    )
    expect(onServer).toHaveLength(1)
    expect(onServer[0]).toMatchObject({ id: current, x: 42 })
    await deleteBlocks([localId!])
    expect(await h.engine.replay()).toBe('idle')
    onServer = await json<SavedBlock[]>(
      await h.call('GET', '/api/project/get_items', undefined, { bg_id: bgId }),
    )
    expect(onServer).toHaveLength(0)
  })

  it('a block named by its client key is the same block before and after its id became the server’s', async () => {
    const { bgId } = await projectWithBackground()
    const ck = 'c-7f1e'
    const [localId] = await saveBlocks([{ ...text(bgId), ck }])
    expect(await h.db.blocks.get(localId!)).toMatchObject({ ck })
    expect(await h.engine.replay()).toBe('idle')
    // Re-keyed to the server id, and re-read by the completion step: the key stays.
    const [row] = await h.db.blocks.where('ck').equals(ck).toArray()
    expect(row!.id).toBeGreaterThan(0)
    // The editor's copy still carries the stale local id: the key decides.
    const [current] = await saveBlocks([{ ...text(bgId, { x: 42 }), id: localId, ck }])
    expect(current).toBe(row!.id)
    expect(await h.engine.replay()).toBe('idle')
    let onServer = await json<SavedBlock[]>(
      await h.call('GET', '/api/project/get_items', undefined, { bg_id: bgId }),
    )
    expect(onServer).toEqual([expect.objectContaining({ id: row!.id, x: 42 })])
    expect(await h.db.blocks.where('ck').equals(ck).count()).toBe(1)
    await deleteBlocks([ck])
    expect(await h.engine.replay()).toBe('idle')
    onServer = await json<SavedBlock[]>(
      await h.call('GET', '/api/project/get_items', undefined, { bg_id: bgId }),
    )
    expect(onServer).toHaveLength(0)
    // Brought back by an undo under the same key: a new block on the server.
    await saveBlocks([{ ...text(bgId, { x: 7 }), id: row!.id, ck }])
    expect(await h.engine.replay()).toBe('idle')
    onServer = await json<SavedBlock[]>(
      await h.call('GET', '/api/project/get_items', undefined, { bg_id: bgId }),
    )
    expect(onServer).toEqual([expect.objectContaining({ x: 7 })])
    expect(onServer[0]!.id).not.toBe(row!.id)
  })

  it('a background keeps its client key when its local id becomes the server’s', async () => {
    const projectId = await createProject(h.workspaceId, 'Ключи')
    const png = new Blob([new Uint8Array(pngImage(16, 9))], { type: 'image/png' })
    const bgId = await addBackground(projectId, png, { width: 1600, height: 900 })
    expect(await h.db.backgrounds.get(bgId)).toMatchObject({ ck: String(bgId) })
    expect(await h.engine.replay()).toBe('idle')
    await h.engine.refresh({ kind: 'project', projectId: (await h.db.projects.toArray())[0]!.id })
    const [bg] = await h.db.backgrounds.toArray()
    expect(bg!.id).toBeGreaterThan(0)
    expect(bg!.ck).toBe(String(bgId))
  })

  it('a specialist picked by its local id after it replayed is saved with the server id', async () => {
    const localId = await createRecord('specialist', h.workspaceId, specialistFields(null, null))
    expect(await h.engine.replay()).toBe('idle')
    const [specialist] = await serverList<{ id: number }>('specialist')
    await updateRecord('specialist', localId, { position: 'Главный врач' })
    expect(await h.engine.replay()).toBe('idle')
    const after = await serverList<{ id: number; position: string }>('specialist')
    expect(after).toEqual([
      expect.objectContaining({ id: specialist!.id, position: 'Главный врач' }),
    ])
  })

  it('saves the stage as a chain in edit order, attaches returned ids, then reconciles get_items', async () => {
    const { bgId } = await projectWithBackground()
    // A block deleted on the server by another device disappears at the completion step.
    const other = await json<{ id: number }>(
      await h.call('POST', '/api/text/add', text(bgId, { name: 'Чужой' })),
    )
    await h.engine.refresh({
      kind: 'project',
      projectId: (await h.db.backgrounds.get(bgId))!.project_id,
    })
    expect(await h.db.blocks.get(other.id)).toBeDefined()
    await h.call('POST', '/api/project/delete_item', { id: other.id })

    const ids = await saveBlocks([
      text(bgId),
      {
        type: 'gift',
        bg_id: bgId,
        x: 1,
        y: 1,
        zindex: 2,
        rotation: 0,
        color: '#ff0000',
        text: 'Подарок',
        name: 'Подарок',
        button_url: '',
        button_hook_url: '',
      },
      {
        type: 'price',
        bg_id: bgId,
        x: 2,
        y: 2,
        zindex: 3,
        rotation: 0,
        color: '#00ff00',
        text: '1 500 ₽',
        text_price: 1500,
        button_text: 'Купить',
      },
    ])
    expect(await h.engine.replay()).toBe('idle')
    expect(h.sent.slice(-4).map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /api/text/add',
      'POST /api/gift/add',
      'POST /api/price/add',
      'GET /api/project/get_items',
    ])
    const server = await json<SavedBlock[]>(
      await h.call('GET', '/api/project/get_items', undefined, { bg_id: bgId }),
    )
    const local = await h.db.blocks.where('bg_id').equals(bgId).toArray()
    expect(local.map((b) => b.id).sort()).toEqual(server.map((b) => b.id).sort())
    expect(local.some((b) => isLocalId(b.id))).toBe(false)
    expect(await h.db.blocks.get(other.id)).toBeUndefined()
    for (const id of ids) expect(await h.db.blocks.get(id)).toBeUndefined()

    // The gift now holds an id: its next save is /gift/update with that id.
    const gift = local.find((b) => b.type === 'gift')!
    h.sent.length = 0
    await saveBlocks([{ ...gift, text: 'Подарок к визиту' }])
    await h.engine.replay()
    expect(h.sent.map((s) => s.path)).toEqual(['/api/gift/update', '/api/project/get_items'])
    expect(h.sent[0]!.body).toMatchObject({ id: gift.id, text: 'Подарок к визиту' })

    // Deleting: widgets via their own delete, the others via delete_item.
    h.sent.length = 0
    await deleteBlocks([gift.id, local.find((b) => b.type === 'text')!.id])
    await h.engine.replay()
    expect(h.sent.map((s) => s.path)).toEqual([
      '/api/gift/delete',
      '/api/project/delete_item',
      '/api/project/get_items',
    ])
  })

  it('a response lost after the server applied the change is retried with the same key: no duplicate', async () => {
    await createRecord('department', h.workspaceId, { name: 'Хирургия', description: '' })
    let dropped = false
    h.fault.current = (s) => {
      if (s.path === '/api/department/add' && !dropped) {
        dropped = true
        return 'drop-after'
      }
      return undefined
    }
    expect(await h.engine.replay()).toBe('backoff')
    expect(await serverList('department')).toHaveLength(1) // the server did apply it
    const [entry] = await h.db.outbox.toArray()
    expect(entry!.attempts).toBe(1)
    expect(entry!.nextAttemptAt).toBeGreaterThan(h.clock.now)
    // Before the backoff ends nothing is sent.
    expect(await h.engine.replay()).toBe('backoff')
    expect(h.sent.filter((s) => s.path === '/api/department/add')).toHaveLength(1)

    // Meanwhile the user renames it: the rename must not merge into the sent add (whose stored
    // answer the server will replay), it follows as its own update.
    await updateRecord('department', Number(entry!.ck), { name: 'Хирургия и травматология' })
    // The network is back (the page's `online`): the retry is due at once, with the same key.
    expect(await h.engine.replay({ resetBackoff: true })).toBe('idle')
    const adds = h.sent.filter((s) => s.path === '/api/department/add')
    expect(adds).toHaveLength(2)
    expect(adds[1]!.key).toBe(adds[0]!.key)
    const list = await serverList<{ id: number; name: string }>('department')
    expect(list.map((d) => d.name)).toEqual(['Хирургия и травматология'])
    const local = await h.db.department.toArray()
    expect(local.map((d) => [d.id, d.name])).toEqual([[list[0]!.id, 'Хирургия и травматология']])
  })

  it('a request that never left, 5xx and 429 back off exponentially and keep the order', async () => {
    await createRecord('location', h.workspaceId, { name: 'Север', address: '', phone: '' })
    await createRecord('location', h.workspaceId, { name: 'Юг', address: '', phone: '' })
    const faults = ['fail-before', 503, 429] as const
    let failures = 0
    h.fault.current = (s) => {
      if (s.path !== '/api/location/add' || failures >= faults.length) return undefined
      const fault = faults[failures++]!
      if (fault === 'fail-before') return 'fail-before'
      return new Response(JSON.stringify({ error: { code: 'server_error', message: 'Ошибка' } }), {
        status: fault,
      })
    }
    let previousDelay = 0
    for (let i = 0; i < faults.length; i += 1) {
      expect(await h.engine.replay()).toBe('backoff')
      const first = (await h.db.outbox.orderBy('seq').first())!
      expect(first.attempts).toBe(i + 1)
      const delay = first.nextAttemptAt - h.clock.now
      expect(delay).toBeGreaterThan(previousDelay)
      previousDelay = delay
      h.clock.now = first.nextAttemptAt
    }
    expect(await h.engine.replay()).toBe('idle')
    const names = (await serverList<{ name: string }>('location')).map((l) => l.name)
    expect(names).toEqual(['Север', 'Юг'])
    // Every try of the first entry carried the same key.
    const keys = new Set(
      h.sent
        .filter((s) => s.body && (s.body as { name?: string }).name === 'Север')
        .map((s) => s.key),
    )
    expect(keys.size).toBe(1)
  })

  it('a retry that meets its own first try still running (409 idempotency_pending) waits and tries again, never parks', async () => {
    await createRecord('location', h.workspaceId, { name: 'Центр', address: '', phone: '' })
    let pendingAnswers = 0
    h.fault.current = (s) => {
      if (s.path !== '/api/location/add' || pendingAnswers >= 2) return undefined
      pendingAnswers += 1
      const body = {
        error: { code: 'idempotency_pending', message: 'Такой же запрос ещё выполняется' },
      }
      return new Response(JSON.stringify(body), {
        status: 409,
        headers: { 'Content-Type': 'application/json' },
      })
    }
    for (let i = 0; i < 2; i += 1) {
      expect(await h.engine.replay()).toBe('backoff')
      const entry = (await h.db.outbox.orderBy('seq').first())!
      expect(entry.state).toBe('pending')
      h.clock.now = entry.nextAttemptAt
    }
    expect(await h.engine.replay()).toBe('idle')
    expect(await h.db.outbox.count()).toBe(0)
    expect((await serverList<{ name: string }>('location')).map((l) => l.name)).toEqual(['Центр'])
  })

  it('401 pauses replay and asks to sign in; a new token resumes with nothing lost', async () => {
    await storeAuthToken({ token: 'expired-token', expiry: null }, h.db)
    await createRecord('department', h.workspaceId, { name: 'Неврология', description: '' })
    expect(await h.engine.replay()).toBe('signin')
    expect((await readSyncMeta(h.db)).needsSignIn).toBe(true)
    expect(await h.db.outbox.count()).toBe(1)
    // Still paused: nothing is sent until the user signs in again.
    const before = h.sent.length
    expect(await h.engine.replay()).toBe('signin')
    expect(h.sent.length).toBe(before)

    await storeAuthToken({ token: h.token, expiry: null }, h.db)
    expect((await readSyncMeta(h.db)).needsSignIn).toBe(false)
    expect(await h.engine.replay()).toBe('idle')
    expect((await serverList<{ name: string }>('department')).map((d) => d.name)).toEqual([
      'Неврология',
    ])
  })

  it('a 422 parks the entry with the Russian message; discard restores the server copy', async () => {
    const created = await json<{ id: number }>(
      await h.call('POST', '/api/department/add', {
        workspace_id: h.workspaceId,
        name: 'Кардиология',
        description: '',
      }),
    )
    await h.engine.refresh({ kind: 'department', workspaceId: h.workspaceId })
    await updateRecord('department', created.id, { name: '   ' })
    // A later valid change of another record still goes through.
    await createRecord('location', h.workspaceId, { name: 'Запад', address: '', phone: '' })
    expect(await h.engine.replay()).toBe('idle')
    const [parked] = await h.db.outbox.where('state').equals('parked').toArray()
    expect(parked).toMatchObject({
      table: 'department',
      ck: String(created.id),
      code: 'validation_error',
    })
    expect(parked!.message).toMatch(/Проверьте введённые данные/)
    expect(parked!.message).toMatch(/Обязательное поле/)
    // The field messages are kept apart too, so the form can show them under their fields.
    expect(Object.keys(parked!.fields ?? {})).toEqual(['name'])
    expect(await serverList('location')).toHaveLength(1)

    // A refresh never overwrites the record while the rejected change waits.
    await h.engine.refresh({ kind: 'department', workspaceId: h.workspaceId })
    expect((await h.db.department.get(created.id))!.name).toBe('   ')

    await h.engine.discardEntry(parked!.seq!)
    expect(await h.db.outbox.count()).toBe(0)
    expect((await h.db.department.get(created.id))!.name).toBe('Кардиология')
  })

  it('retry of a parked entry sends it again with a new key', async () => {
    const id = await createRecord('department', h.workspaceId, { name: '', description: '' })
    await h.engine.replay()
    const [parked] = await h.db.outbox.toArray()
    expect(parked!.state).toBe('parked')
    // The user fixes the name; the fix merges nowhere (the parked entry is frozen) and waits.
    await updateRecord('department', id, { name: 'Педиатрия' })
    await h.engine.replay()
    expect(await h.db.outbox.count()).toBe(2)
    await h.engine.retryEntry(parked!.seq!)
    expect(await h.engine.replay()).toBe('idle')
    const adds = h.sent.filter((s) => s.path === '/api/department/add')
    expect(new Set(adds.map((s) => s.key)).size).toBe(2)
    expect((await serverList<{ name: string }>('department')).map((d) => d.name)).toEqual([
      'Педиатрия',
    ])
  })

  it('refresh reflects server deletions and keeps a record with a pending edit', async () => {
    const a = await json<{ id: number }>(
      await h.call('POST', '/api/location/add', {
        workspace_id: h.workspaceId,
        name: 'А',
        address: '',
        phone: '',
      }),
    )
    const b = await json<{ id: number }>(
      await h.call('POST', '/api/location/add', {
        workspace_id: h.workspaceId,
        name: 'Б',
        address: '',
        phone: '',
      }),
    )
    await h.engine.refresh({ kind: 'location', workspaceId: h.workspaceId })
    expect(await h.db.location.count()).toBe(2)

    await updateRecord('location', b.id, { address: 'Новый адрес' })
    await h.call('POST', '/api/location/delete', { id: a.id })
    await h.call('POST', '/api/location/update', { id: b.id, name: 'Б с сервера' })
    await h.engine.refresh({ kind: 'location', workspaceId: h.workspaceId })

    expect(await h.db.location.get(a.id)).toBeUndefined()
    expect(await h.db.location.get(b.id)).toMatchObject({ name: 'Б', address: 'Новый адрес' })
    await h.engine.replay()
    // After the edit replays, the server copy (which has both changes) lands in the mirror.
    expect(await h.db.location.get(b.id)).toMatchObject({
      name: 'Б с сервера',
      address: 'Новый адрес',
    })
  })

  it('one refresh clears the references to every department the server deleted', async () => {
    const add = async (name: string) =>
      json<{ id: number }>(
        await h.call('POST', '/api/department/add', {
          workspace_id: h.workspaceId,
          name,
          description: '',
        }),
      )
    const [a, b, kept] = [await add('А'), await add('Б'), await add('В')]
    await h.engine.refresh({ kind: 'department', workspaceId: h.workspaceId })
    // Three specialists made offline, one per department: their adds wait in the outbox.
    const ids = await Promise.all(
      [a, b, kept].map((d) =>
        createRecord('specialist', h.workspaceId, specialistFields(d.id, null)),
      ),
    )
    await h.call('POST', '/api/department/delete', { id: a.id })
    await h.call('POST', '/api/department/delete', { id: b.id })
    await h.engine.refresh({ kind: 'department', workspaceId: h.workspaceId })

    const local = await Promise.all(ids.map((id) => h.db.specialist.get(id)))
    expect(local.map((s) => s?.department_id)).toEqual([null, null, kept.id])
    // Queued payloads name the department by key (a department the server made: its id).
    const queued = await h.db.outbox.where('table').equals('specialist').toArray()
    expect(queued.map((e) => payloadFields(e).department_id).sort()).toEqual(
      [String(kept.id), null, null].sort(),
    )
    expect(await h.engine.replay()).toBe('idle')
    const onServer = await serverList<{ department_id: number | null }>('specialist')
    expect(onServer.map((s) => s.department_id).sort()).toEqual([kept.id, null, null].sort())
  })

  it('an image uploaded offline goes first and its local-file url is rewritten everywhere', async () => {
    const { bgId } = await projectWithBackground()
    const url = await uploadFile(new Blob([new Uint8Array(pngImage(4, 4))], { type: 'image/png' }))
    const [id] = await saveBlocks([
      {
        type: 'image',
        bg_id: bgId,
        x: 0,
        y: 0,
        zindex: 1,
        rotation: 0,
        width: 30,
        height: 20,
        scaleX: 1,
        scaleY: 1,
        name: 'Фото',
        image_url: url,
      },
    ])
    expect(await h.engine.replay()).toBe('idle')
    expect(h.sent.map((s) => s.path).slice(-3)).toEqual([
      '/api/image/upload',
      '/api/image/add',
      '/api/project/get_items',
    ])
    const [block] = await h.db.blocks.where('bg_id').equals(bgId).toArray()
    expect(block!.id).not.toBe(id)
    expect((block as { image_url: string }).image_url).toMatch(/^\/uploads\//)
    const fileId = Number(url.split(':')[1])
    expect((await h.db.files.get(fileId))!.uploadedUrl).toBe(
      (block as { image_url: string }).image_url,
    )
  })

  it('an offline project with a background and blocks on it replays in order with every id remapped', async () => {
    const projectId = await createProject(h.workspaceId, 'Черновик')
    await renameProject(projectId, 'Весенняя акция')
    await setProjectType(projectId, 2)
    const bgId = await addBackground(
      projectId,
      new Blob([new Uint8Array(pngImage(9, 16))], { type: 'image/png' }),
      { width: 900, height: 1600 },
    )
    await saveBlocks([text(bgId)])
    const copyId = await copyProject(projectId)
    expect(await h.engine.replay()).toBe('idle')
    expect(h.sent.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /api/project/add',
      'POST /api/project/set_type',
      'POST /api/project/add_bg',
      'POST /api/text/add',
      'GET /api/project/get_items',
      'GET /api/project/copy',
      'GET /api/project/get',
      'GET /api/project/get_items',
    ])
    const projects = await serverList<{ id: number; name: string; type: number }>('project')
    expect(projects.map((p) => [p.name, p.type])).toEqual([
      ['Весенняя акция', 2],
      ['Весенняя акция (копия)', 2],
    ])
    const [original, copy] = projects
    expect(await h.db.projects.get(projectId)).toBeUndefined()
    expect(await h.db.projects.get(copyId)).toBeUndefined()
    const bgs = await h.db.backgrounds.orderBy('project_id').toArray()
    expect(bgs.map((b) => b.project_id)).toEqual([original!.id, copy!.id])
    expect(bgs[0]!.image_url).toMatch(/^\/uploads\//)
    const blocks = await h.db.blocks.toArray()
    expect(blocks.map((b) => b.bg_id).sort()).toEqual(bgs.map((b) => b.id).sort())
  })

  it('records waiting on a rejected create are held; discarding the create releases them', async () => {
    const dept = await createRecord('department', h.workspaceId, { name: '', description: '' })
    const spec = await createRecord('specialist', h.workspaceId, specialistFields(dept, null))
    expect(await h.engine.replay()).toBe('idle')
    expect(h.sent.map((s) => s.path)).toEqual(['/api/department/add'])
    expect((await h.db.outbox.orderBy('seq').toArray()).map((e) => e.state)).toEqual([
      'parked',
      'pending',
    ])
    const [parked] = await h.db.outbox.where('state').equals('parked').toArray()
    await h.engine.discardEntry(parked!.seq!)
    expect(await h.db.department.get(dept)).toBeUndefined()
    expect((await h.db.specialist.get(spec))!.department_id).toBeNull()
    expect(await h.engine.replay()).toBe('idle')
    const [serverSpec] = await serverList<{ department_id: number | null }>('specialist')
    expect(serverSpec!.department_id).toBeNull()
    expect(await h.db.outbox.count()).toBe(0)
  })

  it('one replayer at a time: a second engine on the same outbox reports busy and sends nothing', async () => {
    for (let i = 0; i < 5; i += 1) {
      await createRecord('location', h.workspaceId, { name: `Точка ${i}`, address: '', phone: '' })
    }
    const other = createSyncEngine({ db: h.db, locks: null, schedule: () => undefined })
    const [a, b] = await Promise.all([h.engine.replay(), other.replay()])
    expect([a, b].sort()).toEqual(['busy', 'idle'])
    expect(h.sent.filter((s) => s.path === '/api/location/add')).toHaveLength(5)
    expect(await serverList('location')).toHaveLength(5)
  })

  it('uses Web Locks when present: the lock is asked for by name, only if available', async () => {
    const asked: { name: string; ifAvailable?: boolean }[] = []
    let held = false
    const locks: LockManagerLike = {
      async request(name, options, callback) {
        asked.push({ name, ifAvailable: options.ifAvailable })
        if (held && options.ifAvailable) return callback(null)
        held = true
        try {
          return await callback({ name })
        } finally {
          held = false
        }
      },
    }
    const engine = createSyncEngine({ db: h.db, locks, schedule: () => undefined })
    await createRecord('department', h.workspaceId, { name: 'Лор', description: '' })
    held = true
    expect(await engine.replay()).toBe('busy')
    held = false
    expect(await engine.replay()).toBe('idle')
    expect(asked.every((a) => a.name === 'promo-builder-outbox' && a.ifAvailable)).toBe(true)
    expect(await serverList('department')).toHaveLength(1)
  })

  it('the project types refresh without the replay lock; the lists wait for it', async () => {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const asked: string[] = []
    // A replay elsewhere holds the lock until `release`.
    const locks: LockManagerLike = {
      async request(name, _options, callback) {
        asked.push(name)
        await released
        return callback({ name })
      },
    }
    const engine = createSyncEngine({ db: h.db, locks, schedule: () => undefined })
    await h.db.projectTypes.clear()
    const workspaces = engine.refresh({ kind: 'workspaces' })
    await engine.refresh({ kind: 'projectTypes' })
    expect((await h.db.projectTypes.toArray()).length).toBeGreaterThan(0)
    expect(asked).toEqual(['promo-builder-outbox'])
    let workspacesDone = false
    void workspaces.then(() => (workspacesDone = true))
    await Promise.resolve()
    expect(workspacesDone).toBe(false)
    release()
    await workspaces
    expect(workspacesDone).toBe(true)
  })

  it('a token that expired while changes wait asks to sign in again', async () => {
    await storeAuthToken({ token: h.token, expiry: h.clock.now - 1 }, h.db)
    await createRecord('department', h.workspaceId, { name: 'Офтальмология', description: '' })
    expect(await h.engine.replay()).toBe('signin')
    expect((await readSyncMeta(h.db)).needsSignIn).toBe(true)
    expect(h.sent).toHaveLength(0)
  })
})
