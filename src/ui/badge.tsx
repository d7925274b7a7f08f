import type { CSSProperties, ReactNode } from 'react'
import classes from './controls.module.css'

/**
 * A small label (Mantine's light Badge look), Mantine-free for the list pages. `dark` and `white`
 * are the filled ones drawn over a picture (a slide's number and its block count).
 */
export function Badge({
  color = 'blue',
  leftSection,
  children,
  className,
  ...rest
}: {
  color?: 'blue' | 'gray' | 'red' | 'orange' | 'teal' | 'dark' | 'white'
  leftSection?: ReactNode
  children: ReactNode
  className?: string
  style?: CSSProperties
  'aria-hidden'?: boolean
} & Record<`data-${string}`, string>) {
  return (
    <span
      className={className ? `${classes.badge} ${className}` : classes.badge}
      data-color={color}
      {...rest}
    >
      {leftSection}
      <span>{children}</span>
    </span>
  )
}
