import { payloadFields } from '../../src/data/entries.ts'
import { beforeEach, describe, expect, it } from 'vitest'
import { addBackground } from '../../src/sync/mutators/backgrounds.ts'
import { saveBlocks } from '../../src/sync/mutators/blocks.ts'
import { uploadFile } from '../../src/sync/mutators/files.ts'
import { copyProject, createProject } from '../../src/sync/mutators/projects.ts'
import { createRecord, deleteRecord, updateRecord } from '../../src/sync/mutators/records.ts'
import { createWorkspace, deleteWorkspace } from '../../src/sync/mutators/workspaces.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import { createMirrorService, type CommandName } from '../../src/sync/service.ts'
import { isLocalId } from '../../src/data/ids.ts'
import type { LocalBlock } from '../../src/data/types.ts'

let db: MirrorDb
let n = 0
beforeEach(() => {
  n += 1
  db = new MirrorDb(`commands-${n}`)
  setDb(db)
})

const textBlock = (bgId: number, extra: Partial<LocalBlock> = {}): LocalBlock =>
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
    color: '#000000',
    text: 'Привет',
    background: 'transparent',
    name: 'Заголовок',
    ...extra,
  }) as LocalBlock

describe('commands: local write + outbox entry in one transaction', () => {
  it('a copy is named at once as the server will name it', async () => {
    const id = await createProject(1, 'Акция')
    const copy = await copyProject(id)
    expect((await db.projects.get(copy))?.name).toBe('Акция (копия)')
    const entry = await db.outbox
      .where('[table+ck]')
      .equals(['projects', String(copy)])
      .first()
    expect(entry).toMatchObject({ op: 'copy', payload: { source_id: String(id) } })
  })

  it('creates a record with a local id, defaults and one create entry', async () => {
    const id = await createRecord('specialist', 7, {
      name: 'Анна',
      position: 'Врач',
      department_id: null,
      location_id: null,
      phone: '',
      email: '',
      photo_url: '',
      description: '',
      enabled: false,
    })
    expect(isLocalId(id)).toBe(true)
    const row = await db.specialist.get(id)
    expect(row).toMatchObject({ name: 'Анна', workspace_id: 7, enabled: false })
    const entries = await db.outbox.orderBy('seq').toArray()
    expect(entries.map((e) => e.op)).toEqual(['create', 'toggle'])
    expect(entries[0]!.payload).toMatchObject({ workspace_id: '7', name: 'Анна' })
    expect(entries[0]!.payload).not.toHaveProperty('enabled')
    expect(entries[0]!.key).not.toBe(entries[1]!.key)
  })

  it('gives successive local ids -1, -2, …', async () => {
    const a = await createWorkspace('A')
    const b = await createWorkspace('B')
    expect([a, b]).toEqual([-1, -2])
  })

  it('drops a masked secret from an update so the stored one is kept', async () => {
    await db.amo.put({
      id: 5,
      workspace_id: 1,
      name: 'amo',
      subdomain: 'shop',
      client_id: 'c',
      client_secret: '••••abcd',
      redirect_uri: 'https://x.ru',
      enabled: true,
    })
    await updateRecord('amo', 5, { name: 'Новое имя', client_secret: '••••abcd' })
    const [entry] = await db.outbox.toArray()
    expect(entry!.payload).toEqual({ name: 'Новое имя' })
  })

  it('deleting a department clears it from specialists, rows and queued payloads', async () => {
    const dept = await createRecord('department', 1, { name: 'Терапия', description: '' })
    const spec = await createRecord('specialist', 1, {
      name: 'Иван',
      position: '',
      department_id: dept,
      location_id: null,
      phone: '',
      email: '',
      photo_url: '',
      description: '',
    })
    await deleteRecord('department', dept)
    expect((await db.specialist.get(spec))!.department_id).toBeNull()
    const create = (await db.outbox.toArray()).find((e) => e.table === 'specialist')
    expect(payloadFields(create!).department_id).toBeNull()
  })

  it('saveBlocks queues changed blocks and one completion step per background', async () => {
    const [a, b] = await saveBlocks([textBlock(3), textBlock(3, { name: 'Второй' })])
    expect(isLocalId(a!) && isLocalId(b!)).toBe(true)
    // Saving the same state again sends nothing; a changed block is queued again.
    await saveBlocks([
      { ...textBlock(3), id: a },
      { ...textBlock(3, { name: 'Второй' }), id: b, x: 10 },
    ])
    const entries = await db.outbox.orderBy('seq').toArray()
    expect(entries.map((e) => `${e.op}:${e.ck}`)).toEqual([
      `save:${a}`,
      `save:${b}`,
      'complete:3',
      `save:${b}`,
      'complete:3',
    ])
  })

  it('keeps uploads as local-file urls and background files in files', async () => {
    const url = await uploadFile(new Blob(['x'], { type: 'image/png' }))
    expect(url).toMatch(/^local-file:\d+$/)
    const bg = await addBackground(-9, new Blob(['y'], { type: 'image/png' }), {
      width: 1600,
      height: 900,
    })
    expect((await db.backgrounds.get(bg))!.image_url).toMatch(/^local-file:/)
    expect(await db.files.count()).toBe(2)
  })

  it('deleting a workspace removes its records and their queued entries', async () => {
    const ws = await createWorkspace('Клиника')
    await createRecord('location', ws, { name: 'Центр', address: '', phone: '' })
    await deleteWorkspace(ws)
    expect(await db.location.count()).toBe(0)
    const entries = await db.outbox.orderBy('seq').toArray()
    expect(entries.map((e) => `${e.table}:${e.op}`)).toEqual([
      'workspaces:create',
      'workspaces:delete',
    ])
  })
})

/** The commands as the page sends them: by name, with arguments that crossed postMessage. */
async function refusal(command: CommandName, args: unknown[]) {
  const error = await createMirrorService()
    .run(command, args)
    .then(
      () => null,
      (e: unknown) => e as Error,
    )
  // Only an Error's name and message cross the worker boundary.
  return error && { name: error.name, message: error.message }
}

async function stored() {
  return {
    projects: await db.projects.count(),
    blocks: await db.blocks.count(),
    outbox: await db.outbox.count(),
  }
}

describe("a command's arguments, checked before its local write", () => {
  it('refuses a bad argument with an error naming the command and the argument, and writes nothing', async () => {
    expect(await refusal('createProject', [1, 42])).toEqual({
      name: 'CommandArgumentError',
      message: expect.stringMatching(/^createProject: .*string.*\(argument 2\)$/),
    })
    expect(await refusal('setProjectType', [1, 3])).toMatchObject({
      message: expect.stringMatching(/^setProjectType: .*but received 3 \(argument 2\)$/),
    })
    expect(await refusal('saveBlocks', [[{ type: 'marquee', bg_id: 1 }]])).toMatchObject({
      name: 'CommandArgumentError',
      message: expect.stringMatching(/^saveBlocks: .*\(argument 1\.0\.type\)$/),
    })
    expect(await refusal('createRecord', ['doctor', 1, {}])).toMatchObject({
      message: expect.stringMatching(/^createRecord: .*\(argument 1\)$/),
    })
    expect(await stored()).toEqual({ projects: 0, blocks: 0, outbox: 0 })
  })

  it('runs a command whose arguments pass, with every field it was given', async () => {
    const service = createMirrorService()
    const projectId = (await service.run('createProject', [1, 'Акция'])) as number
    // The block's own fields are not in the command's schema: they are stored all the same.
    const block = { type: 'text', bg_id: -5, x: 10, y: 20, text: 'Привет', fontSize: 6 }
    const [blockId] = (await service.run('saveBlocks', [[block]])) as number[]
    expect(await db.projects.get(projectId)).toMatchObject({ name: 'Акция' })
    expect(await db.blocks.get(blockId!)).toMatchObject(block)
    expect(await refusal('copyProject', [projectId])).toBeNull()
  })
})
