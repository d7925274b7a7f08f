import type { MirrorDb } from '../../data/db.ts'

/**
 * Whether a published page still shows its project (docs/SYNC.md "Publishing"): a change made here
 * marks it changed at once, and a refresh keeps it so while the change is queued. The refresh needs
 * this on every list, so it lives apart from the page's own writes and requests (publishing.ts).
 */

/**
 * The project of a background (by id), for marking its page as changed; null when the background
 * is not in the mirror.
 */
export async function projectOfBackground(db: MirrorDb, bgId: number): Promise<number | null> {
  return (await db.backgrounds.get(bgId))?.project_id ?? null
}

/**
 * The project's content changed here: a published page no longer shows it (what the server's
 * `changed_since` will say once the change is sent). Call inside the change's transaction.
 */
export async function markPageChanged(db: MirrorDb, projectId: number | null): Promise<void> {
  if (projectId === null) return
  const row = await db.projects.get(projectId)
  if (!row?.published || row.published.changed_since) return
  await db.projects.update(projectId, { published: { ...row.published, changed_since: true } })
}

/**
 * Projects whose content has changes queued (a block saved or deleted, a background added or
 * deleted, the project renamed or retyped): a refresh must not take their page for unchanged
 * while those changes have not reached the server.
 */
export async function projectsWithQueuedContent(db: MirrorDb): Promise<Set<number>> {
  const out = new Set<number>()
  const entries = await db.outbox
    .where('table')
    .anyOf(['projects', 'backgrounds', 'blocks'])
    .toArray()
  const add = (row: { project_id?: unknown; id: number } | undefined, own: boolean) => {
    if (!row) return
    out.add(own ? row.id : Number(row.project_id))
  }
  for (const e of entries) {
    // Entries name records by key (docs/SYNC.md "Ids").
    if (e.table === 'projects' && e.op === 'update')
      add(await db.projects.where('ck').equals(e.ck).first(), true)
    else if (e.table === 'backgrounds' && e.op !== 'complete' && e.payload.project_id !== undefined)
      add(await db.projects.where('ck').equals(e.payload.project_id).first(), true)
    else if (e.table === 'blocks')
      add(await db.backgrounds.where('ck').equals(e.payload.bg_id).first(), false)
  }
  return out
}

/**
 * After a refresh wrote server rows: a page whose project has changes still queued here is not
 * unchanged, whatever the server said before it got them.
 */
export async function keepPagesChanged(db: MirrorDb): Promise<void> {
  for (const id of await projectsWithQueuedContent(db)) await markPageChanged(db, id)
}
