import type { Project } from '../../domain/project.ts'

/**
 * A project's public page as the screens show it (docs/screens.md "Publishing"), from the mirror's
 * row (optimistic: what the person did last, docs/SYNC.md "Publishing") and the outbox.
 *
 * - `draft`: «Не опубликован»;
 * - `published`: «Опубликован», the page shows the project as it is;
 * - `changed`: «Есть неопубликованные изменения» (the server's `changed_since`, or an edit made here
 *   since the publish).
 */
export type PageState = 'draft' | 'published' | 'changed'

export function pageState(project: Pick<Project, 'published'>): PageState {
  if (!project.published) return 'draft'
  return project.published.changed_since ? 'changed' : 'published'
}

/**
 * What waits to be sent for the page: a publish or an unpublish asked for and not answered yet
 * (`waiting`, from the outbox), told apart by whether the API answers now (`online`):
 * `publishing` / `unpublishing` while it is being sent, `publish-offline` / `unpublish-offline`
 * while it waits for the network («Опубликуется, когда появится связь»).
 */
export type PageProgress =
  'publishing' | 'unpublishing' | 'publish-offline' | 'unpublish-offline' | null

export function pageProgress(
  waiting: 'publish' | 'unpublish' | undefined,
  online: boolean,
): PageProgress {
  if (waiting === 'publish') return online ? 'publishing' : 'publish-offline'
  if (waiting === 'unpublish') return online ? 'unpublishing' : 'unpublish-offline'
  return null
}
