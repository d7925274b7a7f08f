import { beforeEach, describe, expect, it } from 'vitest'
import { addBackground, deleteBackground } from '../../src/sync/mutators/backgrounds.ts'
import { saveBlocks } from '../../src/sync/mutators/blocks.ts'
import { copyProject, createProject, deleteProject } from '../../src/sync/mutators/projects.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import { coalesce } from '../../src/sync/coalesce.ts'
import { localBlockKeys } from '../../src/data/keyed.ts'

/**
 * A project or background made offline and deleted before it ever reached the server leaves
 * nothing to send: its cascade drops the unsent create, so a delete queued after it would wait
 * for a server id forever (found by the convergence scenarios).
 */
let db: MirrorDb
let n = 0
beforeEach(() => {
  n += 1
  db = new MirrorDb(`delete-unsent-${n}`)
  setDb(db)
})

const image = () => new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' })

async function outboxAfterCoalescing() {
  const entries = await db.outbox.orderBy('seq').toArray()
  const plan = coalesce(entries, await localBlockKeys(db, entries))
  const dropped = new Set(plan.dropped)
  return entries.filter((e) => !dropped.has(e.seq!)).map((e) => `${e.op} ${e.table}`)
}

describe('deleting what never reached the server', () => {
  it('a project created and deleted offline, with a background and blocks, sends nothing', async () => {
    const projectId = await createProject(1, 'Акция')
    const bgId = await addBackground(projectId, image(), { width: 16, height: 9 })
    await saveBlocks([
      {
        type: 'gift',
        bg_id: bgId,
        x: 0,
        y: 0,
        zindex: 1,
        rotation: 0,
        color: '#aa0000',
        text: 'Подарок',
        name: 'Подарок',
        button_url: '',
        button_hook_url: '',
      },
    ])
    await deleteProject(projectId)
    expect(await outboxAfterCoalescing()).toEqual([])
    expect(await db.files.count()).toBe(0)
  })

  it('a background added and deleted offline sends nothing, the project create still goes', async () => {
    const projectId = await createProject(1, 'Акция')
    const bgId = await addBackground(projectId, image(), { width: 16, height: 9 })
    await deleteBackground(bgId)
    expect(await outboxAfterCoalescing()).toEqual(['create projects'])
  })

  it('a project whose create was already tried is still deleted on the server', async () => {
    const projectId = await createProject(1, 'Акция')
    const [create] = await db.outbox.toArray()
    await db.outbox.update(create!.seq!, { sent: true })
    await deleteProject(projectId)
    expect(await outboxAfterCoalescing()).toEqual(['create projects', 'delete projects'])
  })
})

describe('deleting a record another queued change still needs', () => {
  it('a project copied offline and then deleted is created, copied, then deleted', async () => {
    const projectId = await createProject(1, 'Акция')
    await addBackground(projectId, image(), { width: 16, height: 9 })
    await copyProject(projectId, 'Акция (копия)')
    await deleteProject(projectId)
    expect(await outboxAfterCoalescing()).toEqual([
      'create projects',
      'create backgrounds',
      'copy projects',
      'delete projects',
    ])
    expect(await db.backgrounds.count()).toBe(0)
  })

  it('a background deleted while a copy of its project waits keeps its blocks for the copy', async () => {
    const projectId = await createProject(1, 'Акция')
    const bgId = await addBackground(projectId, image(), { width: 16, height: 9 })
    await saveBlocks([
      {
        type: 'gift',
        bg_id: bgId,
        x: 0,
        y: 0,
        zindex: 1,
        rotation: 0,
        color: '#aa0000',
        text: 'Подарок',
        name: 'Подарок',
        button_url: '',
        button_hook_url: '',
      },
    ])
    await copyProject(projectId)
    await deleteBackground(bgId)
    expect(await outboxAfterCoalescing()).toEqual([
      'create projects',
      'create backgrounds',
      'save blocks',
      'complete backgrounds',
      'copy projects',
      'delete backgrounds',
    ])
    expect(await db.blocks.count()).toBe(0)
  })
})
