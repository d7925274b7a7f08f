import type { CSSProperties } from 'react'
import classes from './avatar.module.css'
import { initials } from './initials.ts'

/**
 * A round tile with a person's initials (Mantine's light blue Avatar), decorative: the name is
 * written beside it or names the control it sits in. `size` in pixels.
 */
export function InitialsAvatar({ name, size }: { name: string; size: number }) {
  const style = { '--avatar-size': `${size}px` } as CSSProperties
  return (
    <span className={classes.avatar} style={style} data-initials={initials(name)} aria-hidden />
  )
}
