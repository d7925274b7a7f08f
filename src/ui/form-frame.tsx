import { Trans, useLingui } from '@lingui/react/macro'
import { useBlocker, useRouter } from '@tanstack/react-router'
import type { FormEvent, KeyboardEvent, ReactNode } from 'react'
import { Button } from './button.tsx'
import { confirmDialog } from './confirm.tsx'
import classes from './form-frame.module.css'
import { PageHeader } from './page-header.tsx'

export interface FormFrameProps {
  title: string
  onSubmit: (event?: FormEvent) => void
  /**
   * Esc and «Отмена» go back where the person came from; this is where they go when the app has no
   * earlier page in this tab (a link opened fresh): usually the list. The leave warning applies.
   */
  onCancel: () => void
  /** Read when a navigation starts: unsaved edits ask before leaving. */
  isDirty: () => boolean
  submitting?: boolean
  submitLabel?: ReactNode
  /** Buttons at the start of the footer (delete, enable/disable). */
  extraActions?: ReactNode
  /** Above the fields: a rejected change, a replaced id. */
  notice?: ReactNode
  /** Next to the title. */
  headerActions?: ReactNode
  children: ReactNode
}

/** An open combobox or menu handles Esc itself; the form must not also cancel. */
function escapeBelongsToPopup(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.getAttribute('aria-expanded') === 'true'
}

/**
 * A record form page: Enter submits (Ctrl/Cmd+Enter from a multi-line field), Esc cancels, and a
 * navigation away with unsaved edits asks first (also on reload or closing the tab).
 */
export function FormFrame(props: FormFrameProps) {
  const { t } = useLingui()
  const { isDirty } = props
  const router = useRouter()
  const cancel = () => {
    if (router.history.canGoBack()) router.history.back()
    else props.onCancel()
  }

  useBlocker({
    shouldBlockFn: async ({ current, next, action }) => {
      // The page following its record to a new id (a replace within the same route) is no leave.
      if (action === 'REPLACE' && current.routeId === next.routeId) return false
      if (!isDirty()) return false
      const leave = await confirmDialog({
        title: t`Уйти без сохранения?`,
        message: t`В форме есть несохранённые изменения. Если уйти, они пропадут.`,
        confirmLabel: t`Уйти`,
        cancelLabel: t`Остаться`,
        danger: true,
      })
      return !leave
    },
    enableBeforeUnload: isDirty,
  })

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Escape' && !event.defaultPrevented && !escapeBelongsToPopup(event.target)) {
      event.preventDefault()
      cancel()
    }
    if (
      event.key === 'Enter' &&
      (event.ctrlKey || event.metaKey) &&
      event.target instanceof HTMLTextAreaElement
    ) {
      event.preventDefault()
      props.onSubmit()
    }
  }

  return (
    <div className={classes.page}>
      <PageHeader title={props.title} actions={props.headerActions} />
      <div className={classes.card}>
        <form className={classes.fields} onSubmit={props.onSubmit} onKeyDown={onKeyDown} noValidate>
          {props.notice}
          {props.children}
          <div className={classes.footer}>
            <div className={classes.group}>{props.extraActions}</div>
            <div className={classes.group}>
              <Button variant="default" onClick={cancel}>
                <Trans>Отмена</Trans>
              </Button>
              <Button type="submit" loading={props.submitting}>
                {props.submitLabel ?? <Trans>Сохранить</Trans>}
              </Button>
            </div>
          </div>
        </form>
      </div>
    </div>
  )
}
