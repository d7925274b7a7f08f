import type { ReactNode } from 'react'
import classes from './auth-card.module.css'
import { useDocumentTitle } from './use-document-title.ts'

/** The card of the sign-in, registration and password pages. */
export function AuthCard(props: {
  title: string
  subtitle?: ReactNode
  children: ReactNode
  footer?: ReactNode
}) {
  useDocumentTitle(props.title)
  return (
    <div className={classes.card}>
      <div className={classes.head}>
        <h1 className={classes.title}>{props.title}</h1>
        {props.subtitle ? <p className={classes.subtitle}>{props.subtitle}</p> : null}
      </div>
      {props.children}
      {props.footer ? <div className={classes.footer}>{props.footer}</div> : null}
    </div>
  )
}
