import type { ComponentPropsWithoutRef } from 'react'
import classes from './controls.module.css'

/** The switch shows no text of its own: name it with `aria-label`, or use `SwitchField`. */
export type SwitchProps = Omit<ComponentPropsWithoutRef<'input'>, 'type' | 'role'>

/**
 * An on/off switch (Mantine's Switch look, size lg), Mantine-free for the list pages: a real
 * checkbox with the switch role, so Space toggles it and assistive technology reads "on"/"off".
 * The invisible input covers a 44 px square around the track, so a finger hits it easily.
 */
export function Switch({ className, style, ...rest }: SwitchProps) {
  return (
    <span className={className ? `${classes.switch} ${className}` : classes.switch} style={style}>
      <input {...rest} type="checkbox" role="switch" className={classes.switchInput} />
      <span className={classes.switchTrack} aria-hidden>
        <span className={classes.switchThumb} />
      </span>
    </span>
  )
}
