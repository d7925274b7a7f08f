import { beforeEach, describe, expect, it } from 'vitest'
import { ApiError, configureApi } from '../../src/api/client.ts'
import * as endpoints from '../../src/api/endpoints.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import type { OutboxEntry } from '../../src/data/entries.ts'
import { storeAuthToken } from '../../src/data/sync-state.ts'
import type { BlockRow, LocalBlock } from '../../src/data/types.ts'
import type { SavedBlock } from '../../src/domain/block.ts'
import { coalesce } from '../../src/sync/coalesce.ts'
import { createSyncEngine, type SyncApi } from '../../src/sync/engine.ts'
import { addBackground } from '../../src/sync/mutators/backgrounds.ts'
import { saveBlocks } from '../../src/sync/mutators/blocks.ts'
import { renameProject } from '../../src/sync/mutators/projects.ts'
import {
  publishProject,
  setProjectSlug,
  unpublishProject,
} from '../../src/sync/mutators/publishing.ts'
import { pageUrl } from '../../src/sync/page-url.ts'

/**
 * Publishing through the outbox (docs/SYNC.md "Publishing"): the optimistic page state, the order
 * a publish keeps with the project's changes, and what the answers write. The API is a stand-in
 * that records the calls; tests/integration/publish.test.ts runs the same against the server.
 */

let db: MirrorDb
let n = 0
let calls: string[]
/** What the stand-in server holds: block text by id, and the page. */
let serverText: Map<number, string>
let page: { slug: string; text: string[] } | null
/** Another project's page holds the address this project's name reads as. */
let nameTaken = false
let refuse: ((call: string) => ApiError | null) | null

const block = (extra: Partial<BlockRow> = {}): BlockRow =>
  ({
    id: 20,
    ck: '20',
    type: 'text',
    bg_id: 10,
    x: 0,
    y: 0,
    zindex: 1,
    rotation: 0,
    width: 40,
    fontSize: 6,
    font: 'Inter',
    align: 'center',
    color: '#000000',
    text: 'Было',
    background: 'transparent',
    name: 'Заголовок',
    version: 1,
    ...extra,
  }) as BlockRow

function stubApi(): SyncApi {
  let nextId = 100
  const refused = (call: string) => {
    calls.push(call)
    const error = refuse?.(call)
    if (error) throw error
  }
  return {
    ...endpoints,
    saveBlock: async (payload) => {
      const id = payload.id ?? nextId++
      refused(`save ${payload.type} ${id}`)
      serverText.set(id, 'text' in payload ? payload.text : '')
      return { ...payload, id, version: 2 } as SavedBlock
    },
    getItems: async (bgId) => {
      calls.push(`get_items ${bgId}`)
      return [...serverText].map(([id, text]) => ({ ...block({ id, text }), version: 2 }))
    },
    publishProject: async (projectId) => {
      refused(`publish ${projectId}`)
      const slug = page?.slug ?? (nameTaken ? 'akciya-k3f9' : 'akciya')
      page = { slug, text: [...serverText.values()] }
      return {
        project_id: projectId,
        slug,
        url: `https://pages.example/p/${slug}`,
        published_at: '2026-01-02T03:04:05.000Z',
        published_version: 1,
      }
    },
    unpublishProject: async (projectId) => {
      refused(`unpublish ${projectId}`)
      page = null
      return { project_id: projectId, published: false as const }
    },
    setProjectSlug: async (projectId, slug) => {
      refused(`set_slug ${projectId} ${slug}`)
      page = page ? { ...page, slug } : { slug, text: [] }
      return { project_id: projectId, slug, url: `https://pages.example/p/${slug}` }
    },
  }
}

beforeEach(async () => {
  n += 1
  db = new MirrorDb(`publish-${n}`)
  setDb(db)
  configureApi({ baseUrl: 'https://app.example' })
  calls = []
  serverText = new Map([[20, 'Было']])
  page = null
  nameTaken = false
  refuse = null
  await storeAuthToken({ token: 't', expiry: null }, db)
  await db.mirror('projects').put({
    id: 5,
    ck: '5',
    workspace_id: 1,
    version: 1,
    name: 'Акция',
    type: 1,
    updated_at: '2026-01-01T00:00:00.000Z',
    published: null,
    slug: null,
  })
  await db.backgrounds.put({
    id: 10,
    ck: '10',
    project_id: 5,
    version: 1,
    image_url: '/uploads/a.png',
    width: 100,
    height: 100,
    position: 0,
  })
  await db.blocks.put(block())
})

const engine = () =>
  createSyncEngine({
    db,
    api: stubApi(),
    locks: null,
    random: () => 0.5,
    schedule: () => undefined,
  })
const entries = () => db.outbox.orderBy('seq').toArray()
const edit = (text: string) => saveBlocks([{ ...block({ text }) } as LocalBlock])

describe('publishing: the mirror right after pressing', () => {
  it('shows the page published and unchanged at the address its name reads as', async () => {
    await publishProject(5)
    const row = await db.projects.get(5)
    expect(row?.published).toMatchObject({
      slug: 'akciya',
      url: 'https://app.example/p/akciya',
      changed_since: false,
    })
    // Nobody chose it: it is not claimed (the server gives its default), and the project has no
    // address of its own until the answer.
    expect(row?.slug).toBeNull()
    expect((await entries()).map((e) => [e.op, e.payload])).toEqual([['publish', {}]])
  })

  it('an address nobody chose that another page holds: the answer writes the one the server gave', async () => {
    nameTaken = true
    await publishProject(5)
    await engine().replay()
    expect(await entries()).toEqual([])
    expect(calls).toEqual(['publish 5'])
    const row = await db.projects.get(5)
    expect(row?.slug).toBe('akciya-k3f9')
    expect(row?.published?.url).toBe('https://pages.example/p/akciya-k3f9')
  })

  it('a project with an address publishes there without naming it again', async () => {
    await db.projects.update(5, { slug: 'leto' })
    await publishProject(5)
    expect((await entries()).map((e) => e.op)).toEqual(['publish'])
    await publishProject(5, 'osen')
    expect((await entries()).map((e) => e.op)).toEqual(['publish', 'set_slug', 'publish'])
    expect((await db.projects.get(5))?.published?.slug).toBe('osen')
  })

  it('an edit after publishing marks the page changed; unpublishing takes it down', async () => {
    await publishProject(5)
    await edit('Стало')
    expect((await db.projects.get(5))?.published?.changed_since).toBe(true)
    await publishProject(5)
    expect((await db.projects.get(5))?.published?.changed_since).toBe(false)
    await renameProject(5, 'Летняя акция')
    expect((await db.projects.get(5))?.published?.changed_since).toBe(true)
    await unpublishProject(5)
    expect((await db.projects.get(5))?.published).toBeNull()
    // Content of an unpublished project marks nothing.
    await addBackground(5, new Blob(['x']), { width: 10, height: 10 })
    expect((await db.projects.get(5))?.published).toBeNull()
  })

  it('the page address is on the origin the server gave, else the API’s', () => {
    expect(pageUrl('leto', 'https://pages.example/p/old')).toBe('https://pages.example/p/leto')
    expect(pageUrl('leto')).toBe('https://app.example/p/leto')
  })
})

describe('publishing: the order of the outbox', () => {
  it('sends the project’s earlier edits first and never folds an edit across the publish', async () => {
    await edit('Первая правка')
    await publishProject(5)
    await edit('После публикации')
    const plan = coalesce(await entries(), new Set())
    expect(plan.dropped).toEqual([])
    await engine().replay()
    expect(await entries()).toEqual([])
    expect(page?.text).toEqual(['Первая правка'])
    expect(calls.filter((c) => !c.startsWith('get_items'))).toEqual([
      'save text 20',
      'publish 5',
      'save text 20',
    ])
    // The answer: the server's address and time; an edit made after the press is not on the page.
    expect((await db.projects.get(5))?.published).toEqual({
      slug: 'akciya',
      url: 'https://pages.example/p/akciya',
      published_at: '2026-01-02T03:04:05.000Z',
      changed_since: true,
    })
  })

  it('the answer writes the page unchanged when nothing was edited after the press', async () => {
    await edit('Правка')
    await publishProject(5)
    await engine().replay()
    expect(page?.text).toEqual(['Правка'])
    expect((await db.projects.get(5))?.published?.changed_since).toBe(false)
  })

  it('a publish waits while an earlier edit of its project is refused, and so do later edits', async () => {
    refuse = (call) =>
      call.startsWith('save') && !calls.includes('publish 5')
        ? new ApiError(422, 'validation', 'Текст слишком длинный')
        : null
    await db.projects.update(5, { slug: 'leto' })
    await edit('Отклонённая правка')
    await publishProject(5)
    await edit('Позже')
    const sync = engine()
    await sync.replay()
    expect(calls).not.toContain('publish 5')
    const waiting = await entries()
    expect(waiting.map((e) => [e.op, e.state])).toEqual([
      ['save', 'parked'],
      // The completion step only reads the background: it went.
      ['publish', 'pending'],
      ['save', 'pending'],
      ['complete', 'pending'],
    ])
    // Sent again, it is accepted: the publish follows it, then the later edit.
    refuse = null
    await sync.retryEntry(waiting[0]!.seq!)
    await sync.replay()
    expect(await entries()).toEqual([])
    expect(page?.text).toEqual(['Отклонённая правка'])
    expect(serverText.get(20)).toBe('Позже')
  })

  it('a refused publish holds nothing back, and pressing again replaces it', async () => {
    refuse = (call) => (call === 'publish 5' ? new ApiError(404, 'not_found', 'Нет доступа') : null)
    await db.projects.update(5, { slug: 'leto' })
    await publishProject(5)
    await edit('Позже')
    await engine().replay()
    expect((await entries()).map((e) => [e.op, e.state])).toEqual([['publish', 'parked']])
    expect(serverText.get(20)).toBe('Позже')
    refuse = null
    await publishProject(5)
    expect((await entries()).map((e) => [e.op, e.state])).toEqual([['publish', 'pending']])
    await engine().replay()
    expect(page?.text).toEqual(['Позже'])
  })

  it('a refused address reaches its field; the corrected one takes its place before the publish', async () => {
    refuse = (call) =>
      call === 'set_slug 5 zanyato'
        ? new ApiError(409, 'slug_taken', 'Адрес занят', {
            slug: 'Этот адрес уже занят другой страницей',
          })
        : null
    await publishProject(5, 'zanyato')
    const sync = engine()
    await sync.replay()
    const [refused, publish] = await entries()
    expect(refused).toMatchObject({
      op: 'set_slug',
      state: 'parked',
      fields: { slug: 'Этот адрес уже занят другой страницей' },
    })
    expect(publish).toMatchObject({ op: 'publish', state: 'pending' })
    expect(calls).not.toContain('publish 5')
    await setProjectSlug(5, 'svobodno')
    const [corrected] = await entries()
    expect(corrected).toMatchObject({
      seq: refused!.seq,
      op: 'set_slug',
      state: 'pending',
      payload: { slug: 'svobodno' },
    })
    expect(corrected!.key).not.toBe(refused!.key)
    await sync.replay()
    expect(calls.slice(-2)).toEqual(['set_slug 5 svobodno', 'publish 5'])
    expect((await db.projects.get(5))?.published?.url).toBe('https://pages.example/p/svobodno')
  })

  it('addresses asked for one after another send the last one', async () => {
    await setProjectSlug(5, 'odin')
    await setProjectSlug(5, 'dva')
    const plan = coalesce(await entries(), new Set())
    expect(plan.dropped).toHaveLength(1)
    await engine().replay()
    expect(calls).toEqual(['set_slug 5 dva'])
    expect((await db.projects.get(5))?.slug).toBe('dva')
  })

  it('a refresh keeps the page changed while an edit waits to be sent', async () => {
    await db.projects.update(5, {
      slug: 'leto',
      published: {
        slug: 'leto',
        url: 'https://pages.example/p/leto',
        published_at: 'x',
        changed_since: false,
      },
    })
    await edit('Ждёт сети')
    const offline: SyncApi = {
      ...stubApi(),
      getProject: async () => ({
        ...(await db.projects.get(5))!,
        published: {
          slug: 'leto',
          url: 'https://pages.example/p/leto',
          published_at: 'x',
          changed_since: false,
        },
        backgrounds: [(await db.backgrounds.get(10))!],
      }),
    }
    const sync = createSyncEngine({ db, api: offline, locks: null, schedule: () => undefined })
    await sync.refresh({ kind: 'project', projectId: 5 })
    expect((await db.projects.get(5))?.published?.changed_since).toBe(true)
  })
})

// Keeps the type of a queued entry honest for the assertions above.
export type { OutboxEntry }
