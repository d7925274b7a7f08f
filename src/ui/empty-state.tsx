import { IconInbox, type Icon } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import controls from './controls.module.css'
import classes from './empty-state.module.css'

export interface EmptyStateProps {
  title: ReactNode
  /** What to do next. */
  description: ReactNode
  action?: ReactNode
  icon?: Icon
}

export function EmptyState({
  title,
  description,
  action,
  icon: IconComponent = IconInbox,
}: EmptyStateProps) {
  return (
    <div className={`${controls.card} ${classes.card}`} data-testid="empty-state">
      <div className={classes.body}>
        <span className={controls.iconCircle} style={{ width: 56, height: 56 }} aria-hidden>
          <IconComponent size={30} stroke={1.5} />
        </span>
        <p className={classes.title}>{title}</p>
        <p className={`${controls.dimmed} ${classes.description}`}>{description}</p>
        {action}
      </div>
    </div>
  )
}
