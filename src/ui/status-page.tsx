import type { Icon } from '@tabler/icons-react'
import type { CSSProperties, ReactNode } from 'react'
import controls from './controls.module.css'
import classes from './status-page.module.css'
import { useDocumentTitle } from './use-document-title.ts'

export interface StatusPageProps {
  icon: Icon
  /** A Mantine colour name (blue, red, orange, yellow, grape...). */
  color?: string
  /** A big code above the title ("404"). */
  code?: string
  title: string
  description: ReactNode
  /** Buttons or links under the text. */
  actions?: ReactNode
}

/**
 * Card used by the error, maintenance, coming-soon and not-authorized pages. Mantine-free: the
 * error screens must show even when Mantine's code cannot be loaded.
 */
export function StatusPage({ icon: IconComponent, color = 'blue', ...props }: StatusPageProps) {
  useDocumentTitle(props.title)
  const palette = {
    '--status-light': `var(--mantine-color-${color}-light)`,
    '--status-light-color': `var(--mantine-color-${color}-light-color)`,
    '--status-strong': `var(--mantine-color-${color}-6)`,
  } as CSSProperties
  return (
    <div className={`${controls.card} ${classes.card}`}>
      <div className={classes.body} style={palette}>
        <span className={`${controls.iconCircle} ${classes.icon}`} aria-hidden>
          <IconComponent size={38} stroke={1.5} />
        </span>
        {props.code ? (
          <p className={classes.code} aria-hidden>
            {props.code}
          </p>
        ) : null}
        <h1 className={classes.title}>{props.title}</h1>
        <p className={`${controls.dimmed} ${classes.description}`}>{props.description}</p>
        {props.actions ? <div className={classes.actions}>{props.actions}</div> : null}
      </div>
    </div>
  )
}
