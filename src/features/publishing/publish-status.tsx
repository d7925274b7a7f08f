import { useLingui } from '@lingui/react/macro'
import type { Project } from '../../domain/project.ts'
import { pageProgress, pageState, type PageProgress, type PageState } from './page-state.ts'
import classes from './publishing.module.css'

/** The words of a page's state (docs/screens.md "Publishing"). */
export function usePageStateText(): (state: PageState) => string {
  const { t } = useLingui()
  return (state) =>
    state === 'draft'
      ? t`Не опубликован`
      : state === 'published'
        ? t`Опубликован`
        : t`Есть неопубликованные изменения`
}

/** The words of a publish or unpublish on its way; null when nothing waits. */
export function usePageProgressText(): (progress: PageProgress) => string | null {
  const { t } = useLingui()
  return (progress) => {
    switch (progress) {
      case 'publishing':
        return t`Публикуется…`
      case 'unpublishing':
        return t`Снимается с публикации…`
      case 'publish-offline':
        return t`Опубликуется, когда появится связь`
      case 'unpublish-offline':
        return t`Снимется с публикации, когда появится связь`
      case null:
        return null
    }
  }
}

/**
 * A project's page in a few words, for a list row and the editor's toolbar: its state, or the
 * publish waiting for the network. A coloured dot and text (never colour alone).
 */
export function PublishStatus({
  project,
  waiting,
  online,
  className,
}: {
  project: Pick<Project, 'published'>
  waiting: 'publish' | 'unpublish' | undefined
  online: boolean
  className?: string
}) {
  const state = pageState(project)
  const progress = pageProgress(waiting, online)
  const stateText = usePageStateText()(state)
  const progressText = usePageProgressText()(progress)
  const text = progressText ?? stateText
  return (
    <span
      className={className ? `${classes.status} ${className}` : classes.status}
      data-page-state={state}
      data-page-progress={progress ?? undefined}
      title={text}
    >
      <span className={classes.dot} aria-hidden />
      <span className={classes.statusText}>{text}</span>
    </span>
  )
}
