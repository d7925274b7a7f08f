import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LocalBlock } from '../../src/data/types.ts'
import { saveBlocks } from '../../src/sync/mutators/blocks.ts'
import {
  publishProject,
  setProjectSlug,
  unpublishProject,
} from '../../src/sync/mutators/publishing.ts'
import { pngImage } from '../server/helpers.ts'
import { json, sharedServer, startHarness, type Harness } from './harness.ts'

/**
 * Publishing through the outbox against the reference server (docs/SYNC.md "Publishing"): the
 * public page holds what was on screen when the person pressed «Опубликовать», also when the
 * network came back only later.
 */

let h: Harness
const server = sharedServer()
beforeEach(async () => {
  h = await startHarness(server)
})
afterEach(async () => {
  await h.close()
})

/** A project with one background on the server, mirrored locally. */
async function projectWithBackground(name: string): Promise<{ projectId: number; bgId: number }> {
  const project = await json<{ id: number }>(
    await h.call('POST', '/api/project/add', { workspace_id: h.workspaceId, name }),
  )
  await json(await h.call('POST', '/api/project/set_type', { project_id: project.id, type: 1 }))
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(pngImage(16, 9))], { type: 'image/png' }), 'bg.png')
  form.append('project_id', String(project.id))
  const bg = await json<{ id: number }>(await h.call('POST', '/api/project/add_bg', form))
  await h.engine.refresh({ kind: 'project', projectId: project.id })
  return { projectId: project.id, bgId: bg.id }
}

const text = (bgId: number, ck: string, value: string): LocalBlock =>
  ({
    ck,
    type: 'text',
    bg_id: bgId,
    x: 10,
    y: 10,
    zindex: 1,
    rotation: 0,
    width: 60,
    fontSize: 6,
    font: 'Inter',
    align: 'center',
    color: '#112233',
    text: value,
    background: 'transparent',
    name: 'Заголовок',
  }) as LocalBlock

/** The public page as a visitor gets it: no token. */
async function page(slug: string): Promise<{ status: number; html: string }> {
  const response = await fetch(`${h.server.url}/p/${slug}`)
  return { status: response.status, html: await response.text() }
}

const offline = () => {
  h.fault.current = () => 'fail-before'
}
const online = () => {
  h.fault.current = null
}

describe('publishing through the outbox', () => {
  it('blocks edited offline, published, online again: the page has the edit, not the later one', async () => {
    const { projectId, bgId } = await projectWithBackground('Акция')
    await saveBlocks([text(bgId, 'title', 'Старая цена')])
    expect(await h.engine.replay()).toBe('idle')

    offline()
    await saveBlocks([text(bgId, 'title', 'Скидка 30% до конца мая')])
    await publishProject(projectId)
    await saveBlocks([text(bgId, 'title', 'Черновик после публикации')])
    expect(await h.engine.replay()).toBe('backoff')
    // What the screens show meanwhile: published, at the address the name reads as, with an edit
    // made after the press.
    const waiting = await h.db.projects.get(projectId)
    expect(waiting?.published).toMatchObject({ slug: 'akciya', changed_since: true })
    expect(h.delivered.filter((s) => s.path.includes('publish'))).toEqual([])

    online()
    expect(await h.engine.replay({ resetBackoff: true })).toBe('idle')
    expect(await h.db.outbox.count()).toBe(0)
    const writes = h.delivered.filter((s) => s.method === 'POST').map((s) => s.path)
    expect(writes.slice(-4)).toEqual([
      '/api/text/add',
      '/api/text/add',
      '/api/project/publish',
      '/api/text/add',
    ])

    const published = await page('akciya')
    expect(published.status).toBe(200)
    expect(published.html).toContain('Скидка 30% до конца мая')
    expect(published.html).not.toContain('Черновик после публикации')
    expect(published.html).not.toContain('Старая цена')

    // The answer wrote the server's address; the page is behind the project, as the server says.
    const row = await h.db.projects.get(projectId)
    expect(row?.published).toMatchObject({
      slug: 'akciya',
      url: `${h.server.url}/p/akciya`,
      changed_since: true,
    })
    await h.engine.refresh({ kind: 'project', projectId })
    expect((await h.db.projects.get(projectId))?.published?.changed_since).toBe(true)

    // Publishing again brings the later edit and nothing is left to publish.
    await publishProject(projectId)
    expect(await h.engine.replay()).toBe('idle')
    expect((await page('akciya')).html).toContain('Черновик после публикации')
    await h.engine.refresh({ kind: 'project', projectId })
    expect((await h.db.projects.get(projectId))?.published?.changed_since).toBe(false)
  })

  it('a project nobody gave an address publishes under the server’s, with a suffix when its name’s is taken', async () => {
    const other = await projectWithBackground('Осень')
    await json(await h.call('POST', '/api/project/publish', { project_id: other.projectId }))
    const { projectId, bgId } = await projectWithBackground('Осень')
    await saveBlocks([text(bgId, 'title', 'Вторая осень')])
    await publishProject(projectId)
    // Until the answer the screens show the address the name reads as.
    expect((await h.db.projects.get(projectId))?.published?.slug).toBe('osen')
    expect(await h.engine.replay()).toBe('idle')
    expect(await h.db.outbox.count()).toBe(0)
    const row = await h.db.projects.get(projectId)
    expect(row?.slug).toMatch(/^osen-[a-z0-9]+$/)
    expect(row?.published?.slug).toBe(row?.slug)
    expect((await page(row!.slug!)).html).toContain('Вторая осень')
    expect((await page('osen')).html).not.toContain('Вторая осень')
  })

  it('a taken address parks with its field message, holds the publish, and the corrected one goes first', async () => {
    const other = await projectWithBackground('Лето')
    await json(
      await h.call('POST', '/api/project/set_slug', { project_id: other.projectId, slug: 'leto' }),
    )
    await json(await h.call('POST', '/api/project/publish', { project_id: other.projectId }))

    const { projectId, bgId } = await projectWithBackground('Лето 2')
    await saveBlocks([text(bgId, 'title', 'Вторая страница')])
    await publishProject(projectId, 'leto')
    expect(await h.engine.replay()).toBe('idle')
    const [refused, held] = await h.db.outbox.orderBy('seq').toArray()
    expect(refused).toMatchObject({ op: 'set_slug', state: 'parked', code: 'slug_taken' })
    expect(refused!.fields?.slug).toBeTruthy()
    expect(held).toMatchObject({ op: 'publish', state: 'pending' })

    await setProjectSlug(projectId, 'leto-vtoroe')
    expect(await h.engine.replay()).toBe('idle')
    expect(await h.db.outbox.count()).toBe(0)
    expect((await page('leto-vtoroe')).html).toContain('Вторая страница')
    expect((await page('leto')).html).not.toContain('Вторая страница')

    await unpublishProject(projectId)
    expect(await h.engine.replay()).toBe('idle')
    expect((await page('leto-vtoroe')).status).toBe(404)
    expect((await h.db.projects.get(projectId))?.published).toBeNull()
    await h.engine.refresh({ kind: 'projects', workspaceId: h.workspaceId })
    const rows = await h.db.projects.where('workspace_id').equals(h.workspaceId).toArray()
    expect(rows.map((p) => [p.name, p.slug, p.published?.slug ?? null])).toEqual([
      ['Лето', 'leto', 'leto'],
      ['Лето 2', 'leto-vtoroe', null],
    ])
  })
})
