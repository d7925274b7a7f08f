import { IconChevronDown } from '@tabler/icons-react'
import { forwardRef, type ComponentPropsWithoutRef } from 'react'
import controls from '../../ui/controls.module.css'
import { InitialsAvatar } from '../../ui/avatar.tsx'
import classes from './user-menu-trigger.module.css'

export interface UserMenuTriggerProps extends ComponentPropsWithoutRef<'button'> {
  name: string
}

/**
 * The avatar button of the top bar (shared by the light placeholder and the real menu, which
 * passes its ref and props through). Mantine-free: it is part of the first paint.
 */
export const UserMenuTrigger = forwardRef<HTMLButtonElement, UserMenuTriggerProps>(
  function UserMenuTrigger({ name, className, ...rest }, ref) {
    return (
      <button
        ref={ref}
        type="button"
        className={`${controls.plain} ${classes.trigger}${className ? ` ${className}` : ''}`}
        {...rest}
      >
        {/* The initials are drawn by CSS, not written as text: the button's visible text is then the
            name alone, which its accessible name starts with. */}
        <InitialsAvatar name={name} size={36} />
        <span className={classes.name}>{name}</span>
        <IconChevronDown size={16} aria-hidden />
      </button>
    )
  },
)
