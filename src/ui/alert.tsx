import type { ComponentType, ReactNode } from 'react'
import classes from './alert.module.css'

export interface AlertProps {
  color?: 'red' | 'orange' | 'blue' | 'teal'
  icon?: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>
  title?: ReactNode
  /** `alert` when it appears in answer to what the person did and must be read out at once. */
  role?: 'alert' | 'status'
  children?: ReactNode
  'data-testid'?: string
}

/** A tinted box with an icon, a title and text (Mantine's light Alert look). */
export function Alert({ color = 'blue', icon: Icon, title, role, children, ...rest }: AlertProps) {
  return (
    <div className={classes.root} data-color={color} role={role} {...rest}>
      {Icon ? (
        <span className={classes.icon}>
          <Icon size={20} aria-hidden />
        </span>
      ) : null}
      <div className={classes.body}>
        {title ? <div className={classes.title}>{title}</div> : null}
        {children ? <div className={classes.message}>{children}</div> : null}
      </div>
    </div>
  )
}
