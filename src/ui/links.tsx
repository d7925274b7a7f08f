import { Anchor, Button, type AnchorProps, type ButtonProps } from '@mantine/core'
import { createLink, type LinkComponent } from '@tanstack/react-router'
import { forwardRef, type AnchorHTMLAttributes } from 'react'

/**
 * Mantine's Button and Anchor as router links with typed `to`, `params` and `search` (Mantine's
 * polymorphic `component={Link}` loses them).
 */
const ButtonAnchor = forwardRef<
  HTMLAnchorElement,
  ButtonProps & AnchorHTMLAttributes<HTMLAnchorElement>
>((props, ref) => <Button component="a" ref={ref} {...props} />)
ButtonAnchor.displayName = 'ButtonAnchor'

const TextAnchor = forwardRef<
  HTMLAnchorElement,
  AnchorProps & AnchorHTMLAttributes<HTMLAnchorElement>
>((props, ref) => <Anchor ref={ref} {...props} />)
TextAnchor.displayName = 'TextAnchor'

const CreatedButtonLink = createLink(ButtonAnchor)
const CreatedAnchorLink = createLink(TextAnchor)

export const ButtonLink: LinkComponent<typeof ButtonAnchor> = (props) => (
  <CreatedButtonLink {...props} />
)
export const AnchorLink: LinkComponent<typeof TextAnchor> = (props) => (
  <CreatedAnchorLink {...props} />
)
