import type { ReactNode } from 'react'
import classes from './controls.module.css'

/** A small tinted label (Mantine's light Badge look), Mantine-free for the list pages. */
export function Badge({
  color = 'blue',
  leftSection,
  children,
  ...rest
}: {
  color?: 'blue' | 'gray' | 'red' | 'orange' | 'teal'
  leftSection?: ReactNode
  children: ReactNode
} & Record<`data-${string}`, string>) {
  return (
    <span className={classes.badge} data-color={color} {...rest}>
      {leftSection}
      <span>{children}</span>
    </span>
  )
}
