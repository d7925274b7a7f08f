import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react'
import classes from './controls.module.css'

export type ButtonVariant = 'filled' | 'default' | 'light' | 'subtle'

interface ButtonLook {
  variant?: ButtonVariant
  size?: 'md' | 'compact-sm'
  /** An icon before the label. */
  leftSection?: ReactNode
}

export interface ButtonProps extends ComponentPropsWithoutRef<'button'>, ButtonLook {}

/** The class and data attributes that give a <button> or an <a> the Button look. */
function buttonLook(
  { variant = 'filled', size = 'md', leftSection }: ButtonLook,
  className?: string,
) {
  return {
    className: className ? `${classes.button} ${className}` : classes.button,
    'data-variant': variant,
    'data-size': size,
    'data-with-left': leftSection ? true : undefined,
  }
}

/**
 * A real <button>, Mantine-free so the first load of the list pages stays light; it looks like
 * Mantine's Button of size md (44 px high for touch). `type` defaults to "button".
 */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, size, leftSection, className, children, type = 'button', ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      {...buttonLook({ variant, size, leftSection }, className)}
      {...rest}
    >
      {leftSection}
      {children}
    </button>
  )
})

/**
 * A link that looks like a Button: a full page load («На главную» on the error screen), or, through
 * `ButtonLink` (links.tsx), a router link.
 */
export const ButtonAnchor = forwardRef<
  HTMLAnchorElement,
  ComponentPropsWithoutRef<'a'> & ButtonLook
>(function ButtonAnchor({ variant, size, leftSection, className, children, ...rest }, ref) {
  return (
    <a ref={ref} {...buttonLook({ variant, size, leftSection }, className)} {...rest}>
      {leftSection}
      {children}
    </a>
  )
})

export interface IconButtonProps extends ComponentPropsWithoutRef<'button'> {
  /** The accessible name: an icon alone says nothing to assistive technology. */
  'aria-label': string
  variant?: 'filled' | 'default' | 'subtle'
  color?: 'blue' | 'red' | 'gray'
}

/** A square 44 px icon button (Mantine's ActionIcon look). */
export const IconButton = forwardRef<HTMLButtonElement, IconButtonProps>(function IconButton(
  { variant = 'filled', color = 'blue', className, type = 'button', ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={className ? `${classes.iconButton} ${className}` : classes.iconButton}
      data-variant={variant}
      data-color={color}
      {...rest}
    />
  )
})
