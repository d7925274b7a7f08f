import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react'
import classes from './controls.module.css'

export type ButtonVariant = 'filled' | 'default' | 'light' | 'subtle'

interface ButtonLook {
  variant?: ButtonVariant
  /** `red` for a destructive action; blue otherwise. */
  color?: 'blue' | 'red'
  /** md and sm are both 44 px high (a finger's target); sm has a smaller label. */
  size?: 'md' | 'sm' | 'compact-sm'
  /** An icon before the label. */
  leftSection?: ReactNode
  /** As wide as its container (the sign-in forms). */
  fullWidth?: boolean
}

export interface ButtonProps extends Omit<ComponentPropsWithoutRef<'button'>, 'color'>, ButtonLook {
  /** Busy (a submit on its way): a spinner before the label, not pressable, `aria-busy`. */
  loading?: boolean
}

/** The class and data attributes that give a <button> or an <a> the Button look. */
function buttonLook(
  { variant = 'filled', color = 'blue', size = 'md', leftSection, fullWidth }: ButtonLook,
  className?: string,
) {
  return {
    className: className ? `${classes.button} ${className}` : classes.button,
    'data-variant': variant,
    'data-color': color === 'blue' ? undefined : color,
    'data-size': size,
    'data-with-left': leftSection ? true : undefined,
    'data-full-width': fullWidth ? true : undefined,
  }
}

/** A spinning ring in the current text colour, for a button or a control that is busy. */
export function Spinner({ size = 18 }: { size?: number }) {
  return <span className={classes.spinner} style={{ width: size, height: size }} aria-hidden />
}

/**
 * A real <button>, Mantine-free so the first load of the list pages stays light; it looks like
 * Mantine's Button of size md (44 px high for touch). `type` defaults to "button".
 */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  {
    variant,
    color,
    size,
    leftSection,
    fullWidth,
    loading,
    className,
    children,
    type = 'button',
    disabled,
    ...rest
  },
  ref,
) {
  const icon = loading ? <Spinner /> : leftSection
  return (
    <button
      ref={ref}
      type={type}
      {...buttonLook({ variant, color, size, leftSection: icon, fullWidth }, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {icon}
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
  Omit<ComponentPropsWithoutRef<'a'>, 'color'> & ButtonLook
>(function ButtonAnchor(
  { variant, color, size, leftSection, fullWidth, className, children, ...rest },
  ref,
) {
  return (
    <a
      ref={ref}
      {...buttonLook({ variant, color, size, leftSection, fullWidth }, className)}
      {...rest}
    >
      {leftSection}
      {children}
    </a>
  )
})

export interface IconButtonProps extends Omit<ComponentPropsWithoutRef<'button'>, 'color'> {
  /** The accessible name: an icon alone says nothing to assistive technology. */
  'aria-label': string
  /** `white`: a round white button over a dark backdrop (the preview's arrows). */
  variant?: 'filled' | 'default' | 'subtle' | 'white'
  color?: 'blue' | 'red' | 'gray'
  /** A toggle's state (a tool that is on), for assistive technology and the look. */
  'aria-pressed'?: boolean
}

/**
 * A square 44 px icon button (Mantine's ActionIcon look). Its name never changes with its state:
 * a toggle says it in `aria-pressed`.
 */
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

/**
 * A button with no look of its own, for a pressable card, row or picture that draws itself (a
 * project type, a slide's thumbnail, a layer's row, the header's sync status). `type` defaults to
 * "button"; it forwards its ref, so a popover can anchor to it.
 */
export const PlainButton = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<'button'>>(
  function PlainButton({ className, type = 'button', ...rest }, ref) {
    return (
      <button
        ref={ref}
        type={type}
        className={className ? `${classes.plain} ${className}` : classes.plain}
        {...rest}
      />
    )
  },
)
