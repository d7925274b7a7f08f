import type { ReactNode } from 'react'
import classes from './page-header.module.css'
import { useDocumentTitle } from './use-document-title.ts'

/** A page title with its actions (buttons) on the right; wraps under the title on narrow screens. */
export function PageHeader({
  title,
  actions,
  children,
}: {
  title: string
  actions?: ReactNode
  children?: ReactNode
}) {
  useDocumentTitle(title)
  return (
    <div className={classes.header}>
      <div className={classes.top}>
        <h1 className={classes.title}>{title}</h1>
        {actions ? <div className={classes.actions}>{actions}</div> : null}
      </div>
      {children}
    </div>
  )
}
