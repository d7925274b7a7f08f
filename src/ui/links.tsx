import { createLink, type LinkComponent } from '@tanstack/react-router'
import { forwardRef, type ComponentPropsWithoutRef } from 'react'
import { ButtonAnchor } from './button.tsx'
import classes from './controls.module.css'

const TextAnchor = forwardRef<HTMLAnchorElement, ComponentPropsWithoutRef<'a'>>(function TextAnchor(
  { className, ...rest },
  ref,
) {
  return (
    <a ref={ref} className={className ? `${classes.link} ${className}` : classes.link} {...rest} />
  )
})

const CreatedButtonLink = createLink(ButtonAnchor)
const CreatedAnchorLink = createLink(TextAnchor)

/**
 * The light screens' Button and text link as router links with typed `to`, `params` and
 * `search`; Mantine-free, so the list pages that use them stay out of Mantine's code.
 */
export const ButtonLink: LinkComponent<typeof ButtonAnchor> = (props) => (
  <CreatedButtonLink {...props} />
)
export const AnchorLink: LinkComponent<typeof TextAnchor> = (props) => (
  <CreatedAnchorLink {...props} />
)
