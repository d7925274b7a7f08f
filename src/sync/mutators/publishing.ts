import * as v from 'valibot'
import type { MirrorDb } from '../../data/db.ts'
import type { OutboxEntry, SendOf } from '../../data/entries.ts'
import { keyOfId } from '../../data/keyed.ts'
import { enqueue, newKey } from '../../data/outbox.ts'
import type { ClientKey, Project } from '../../data/types.ts'
import { slugFromName, type PublishedState } from '../../domain/publish.ts'
import { pageUrl } from '../page-url.ts'
import { inAll } from './apply.ts'
import { command, RecordId } from './command.ts'
import type { SendContext } from './context.ts'
import { currentId, write } from './local.ts'

/**
 * Publishing (docs/SYNC.md "Publishing", docs/publishing.md): a project's public page, its
 * removal and its address, queued like every change. A publish is sent after every change of the
 * project queued before it, so the page shows what was on screen when the person pressed it; the
 * mirror shows the project published at once (its state as the server will answer it), and the
 * answer writes what the server made.
 */

declare module '../../data/entries.ts' {
  interface EntryPayloads {
    /** Sent by the projects' sender (projects.ts `sendProject`), through `sendPublishing`. */
    publishing: {
      projects: {
        /**
         * The project's content as the server holds it when this runs becomes its public page: it
         * is sent after every change of the project queued before it (docs/SYNC.md "Publishing").
         */
        publish: NoPayload
        /** The public page's removal. */
        unpublish: NoPayload
        /** The page's address. */
        set_slug: { slug: string }
      }
    }
  }
}

/** Operations on a project's public page. */
export const PUBLISH_OPS: ReadonlySet<string> = new Set(['publish', 'unpublish', 'set_slug'])

/** Whether an entry publishes, unpublishes or names a project's page. */
export function isPublishEntry(entry: { table: string; op: string }): boolean {
  return entry.table === 'projects' && PUBLISH_OPS.has(entry.op)
}

/** The project's queued page entries (publish, unpublish, set_slug), in edit order. */
async function publishEntriesOf(db: MirrorDb, ck: ClientKey): Promise<OutboxEntry[]> {
  const entries = await db.outbox.where('[table+ck]').equals(['projects', ck]).sortBy('seq')
  return entries.filter((e) => PUBLISH_OPS.has(e.op))
}

/**
 * Queues the page's address (optimistically the project's `slug`, and its page's address when it
 * is published). A refused address the person corrects takes the refused entry's place in the edit
 * order, under a new key: a publish queued after it, which waits for it, still follows it.
 */
async function queueSlug(db: MirrorDb, row: Project, slug: string): Promise<void> {
  const published = row.published
    ? { ...row.published, slug, url: pageUrl(slug, row.published.url) }
    : null
  await db.projects.update(row.id, { slug, published })
  const ck = await keyOfId(db, 'projects', row.id)
  const refused = (await publishEntriesOf(db, ck)).find(
    (e) => e.op === 'set_slug' && e.state === 'parked',
  )
  if (refused) {
    await db.outbox.put({
      ...refused,
      payload: { slug },
      key: newKey(),
      state: 'pending',
      sent: false,
      attempts: 0,
      nextAttemptAt: 0,
      message: undefined,
      code: undefined,
      fields: undefined,
    } as OutboxEntry)
    return
  }
  await enqueue(db, {
    table: 'projects',
    recordId: row.id,
    op: 'set_slug',
    payload: { slug },
    label: row.name,
  })
}

/** A new press replaces a refused one: parked publishes and unpublishes of the project go. */
async function dropRefusedPublishing(db: MirrorDb, id: number): Promise<void> {
  const ck = await keyOfId(db, 'projects', id)
  const refused = (await publishEntriesOf(db, ck)).filter(
    (e) => e.op !== 'set_slug' && e.state === 'parked',
  )
  await db.outbox.bulkDelete(refused.map((e) => e.seq!))
}

/**
 * Publishes the project as it is now. `slug`: the address the person chose (sent first when it is
 * not the project's). A project that never had one and whose person chose none gets the server's
 * default (its name transliterated, with a short suffix when another page holds it): the mirror
 * shows the one its name reads as (`slugFromName`) until the answer writes the one given, and
 * nobody is told an address they never chose is taken.
 */
export function publishProject(id: number, slug?: string): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, 'projects', id)
    let row = await db.projects.get(id)
    if (!row) return
    const wanted = slug ?? row.slug ?? slugFromName(row.name)
    if (slug !== undefined && slug !== row.slug) {
      await queueSlug(db, row, slug)
      row = (await db.projects.get(id))!
    }
    await dropRefusedPublishing(db, id)
    const published: PublishedState = {
      slug: wanted,
      url: pageUrl(wanted, row.published?.url),
      published_at: new Date().toISOString(),
      changed_since: false,
    }
    await db.projects.update(id, { published })
    await enqueue(db, {
      table: 'projects',
      recordId: id,
      op: 'publish',
      payload: {},
      label: row.name,
    })
  })
}

export function unpublishProject(id: number): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, 'projects', id)
    const row = await db.projects.get(id)
    if (!row) return
    await dropRefusedPublishing(db, id)
    await db.projects.update(id, { published: null })
    await enqueue(db, {
      table: 'projects',
      recordId: id,
      op: 'unpublish',
      payload: {},
      label: row.name,
    })
  })
}

/** Sets the page's address (before the first publish too). The caller has checked it (`Slug`). */
export function setProjectSlug(id: number, slug: string): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, 'projects', id)
    const row = await db.projects.get(id)
    if (!row || row.slug === slug) return
    await queueSlug(db, row, slug)
  })
}

export const publishingCommands = {
  publishProject: command(v.tuple([RecordId, v.optional(v.string())]), publishProject),
  unpublishProject: command(v.tuple([RecordId]), unpublishProject),
  setProjectSlug: command(v.tuple([RecordId, v.string()]), setProjectSlug),
}

/** The page's entries: the request each becomes, and its answer written into the project's row. */
export async function sendPublishing(
  entry: SendOf<'projects', 'publish' | 'unpublish' | 'set_slug'>,
  ctx: SendContext,
): Promise<void> {
  const { db, api } = ctx
  const { recordId: id, key } = entry
  switch (entry.op) {
    case 'publish': {
      const result = await api.publishProject(id, key)
      return applyPage(db, entry, (row) => ({
        slug: result.slug,
        published: {
          slug: result.slug,
          url: result.url,
          published_at: result.published_at,
          // An edit made here after the press is not on the page (it is marked on the row).
          changed_since: row.published?.changed_since === true,
        },
      }))
    }
    case 'unpublish':
      await api.unpublishProject(id, key)
      return applyPage(db, entry, () => ({ published: null }))
    case 'set_slug': {
      const result = await api.setProjectSlug(id, entry.payload.slug, key)
      return applyPage(db, entry, (row) => ({
        slug: result.slug,
        published: row.published ? { ...row.published, slug: result.slug, url: result.url } : null,
      }))
    }
  }
}

/**
 * The answer of a page entry, in one transaction with its removal. While another page entry of the
 * project waits, the row keeps what the person did last (the mirror is ahead of the server).
 */
async function applyPage(
  db: MirrorDb,
  entry: { seq?: number; ck: ClientKey },
  fields: (row: Project) => Partial<Project>,
): Promise<void> {
  await inAll(db, async () => {
    await db.outbox.delete(entry.seq!)
    const row = await db.projects.where('ck').equals(entry.ck).first()
    if (!row) return
    if ((await publishEntriesOf(db, entry.ck)).length > 0) return
    await db.projects.put({ ...row, ...fields(row) })
  })
}
