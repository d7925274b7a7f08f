import {
  forwardRef,
  type ComponentPropsWithoutRef,
  type CSSProperties,
  type ReactNode,
} from 'react'
import classes from './layout.module.css'

/**
 * Layout and typography of every screen (docs/app-shell.md "UI kit"): Stack, Group, SimpleGrid,
 * Paper, Text, Title, Box and a few small pieces, in the look of their Mantine namesakes (they read
 * Mantine's CSS variables) but without Mantine's JavaScript. They take only the props the screens
 * use: the spacing words of the theme (`xs`…`xl`) or a number of pixels, as Mantine's did.
 */

export type Spacing = 'xs' | 'sm' | 'md' | 'lg' | 'xl'
/** A theme spacing, or pixels (drawn in rem, as Mantine did, so they follow the root font size). */
export type Space = Spacing | number
/** Pixels (in rem) or any CSS length. */
export type Length = number | string

/** The box props the screens use, Mantine's names for them. */
export interface BoxProps {
  m?: Space
  mt?: Space
  mb?: Space
  mx?: Space | 'auto'
  p?: Space
  px?: Space
  py?: Space
  pb?: Space
  w?: Length
  h?: Length
  miw?: Length
  mih?: Length
  maw?: Length
  mah?: Length
  flex?: number | string
  pos?: 'relative'
  ta?: 'center'
  /** A background: any CSS colour. */
  bg?: string
  /** Not drawn from this breakpoint up (md: 62em). */
  hiddenFrom?: 'md'
  /** Drawn only from this breakpoint up (sm: 48em). */
  visibleFrom?: 'sm'
}

const SPACING = new Set<string>(['xs', 'sm', 'md', 'lg', 'xl'])

/** A spacing word as Mantine's variable, pixels as rem. */
export function space(value: Space | 'auto'): string {
  if (typeof value === 'number') return `${value / 16}rem`
  return SPACING.has(value) ? `var(--mantine-spacing-${value})` : value
}

function length(value: Length): string {
  return typeof value === 'number' ? `${value / 16}rem` : value
}

/** Splits the box props off a component's props: the style they make, their classes, the rest. */
export function boxStyle<P extends BoxProps & { style?: CSSProperties; className?: string }>(
  props: P,
): {
  style: CSSProperties | undefined
  className: string | undefined
  rest: Omit<P, keyof BoxProps | 'style' | 'className'>
} {
  const {
    m,
    mt,
    mb,
    mx,
    p,
    px,
    py,
    pb,
    w,
    h,
    miw,
    mih,
    maw,
    mah,
    flex,
    pos,
    ta,
    bg,
    hiddenFrom,
    visibleFrom,
    style,
    className,
    ...rest
  } = props
  const box: CSSProperties = {}
  if (m !== undefined) box.margin = space(m)
  if (mt !== undefined) box.marginTop = space(mt)
  if (mb !== undefined) box.marginBottom = space(mb)
  if (mx !== undefined) box.marginInline = space(mx)
  if (p !== undefined) box.padding = space(p)
  if (px !== undefined) box.paddingInline = space(px)
  if (py !== undefined) box.paddingBlock = space(py)
  if (pb !== undefined) box.paddingBottom = space(pb)
  if (w !== undefined) box.width = length(w)
  if (h !== undefined) box.height = length(h)
  if (miw !== undefined) box.minWidth = length(miw)
  if (mih !== undefined) box.minHeight = length(mih)
  if (maw !== undefined) box.maxWidth = length(maw)
  if (mah !== undefined) box.maxHeight = length(mah)
  if (flex !== undefined) box.flex = flex
  if (pos !== undefined) box.position = pos
  if (ta !== undefined) box.textAlign = ta
  if (bg !== undefined) box.background = bg
  const merged = { ...box, ...style }
  const classNames = [
    hiddenFrom ? classes.hiddenFromMd : null,
    visibleFrom ? classes.visibleFromSm : null,
    className,
  ].filter(Boolean)
  return {
    style: Object.keys(merged).length > 0 ? merged : undefined,
    className: classNames.length > 0 ? classNames.join(' ') : undefined,
    rest,
  }
}

function join(base: string | undefined, extra: string | undefined): string | undefined {
  return base && extra ? `${base} ${extra}` : (base ?? extra)
}

type DivProps = BoxProps & ComponentPropsWithoutRef<'div'>

/** A <div> with the box props. */
export const Box = forwardRef<HTMLDivElement, DivProps>(function Box(props, ref) {
  const { style, className, rest } = boxStyle(props)
  return <div ref={ref} className={className} style={style} {...rest} />
})

type FlexAlign = 'flex-start' | 'center' | 'flex-end' | 'stretch'
type FlexJustify = 'flex-start' | 'center' | 'flex-end' | 'space-between'

export interface StackProps extends DivProps {
  /** Between the children; md by default. */
  gap?: Space
  align?: FlexAlign
  justify?: FlexJustify
  /** `ul`: a list drawn as a stack (no bullets); its children are <li>. */
  component?: 'div' | 'ul'
}

/** Children one under another. */
export const Stack = forwardRef<HTMLDivElement, StackProps>(function Stack(
  { gap, align, justify, component = 'div', ...props },
  ref,
) {
  const { style, className, rest } = boxStyle(props)
  const vars = {
    '--stack-gap': gap === undefined ? undefined : space(gap),
    '--stack-align': align,
    '--stack-justify': justify,
    ...style,
  } as CSSProperties
  // A <ul> takes the same attributes; typed as a <div> for the one element.
  const Component = component as 'div'
  return <Component ref={ref} className={join(classes.stack, className)} style={vars} {...rest} />
})

export interface GroupProps extends DivProps {
  /** Between the children; md by default. */
  gap?: Space
  /** Centred across by default. */
  align?: FlexAlign
  justify?: FlexJustify
  /** Children wrap to the next line by default. */
  wrap?: 'wrap' | 'nowrap'
  /** Children share the row equally. */
  grow?: boolean
}

/** Children side by side. */
export const Group = forwardRef<HTMLDivElement, GroupProps>(function Group(
  { gap, align, justify, wrap, grow, ...props },
  ref,
) {
  const { style, className, rest } = boxStyle(props)
  const vars = {
    '--group-gap': gap === undefined ? undefined : space(gap),
    '--group-align': align,
    '--group-justify': justify,
    '--group-wrap': wrap,
    ...style,
  } as CSSProperties
  return (
    <div
      ref={ref}
      className={join(classes.group, className)}
      style={vars}
      data-grow={grow || undefined}
      {...rest}
    />
  )
})

export interface SimpleGridProps extends DivProps {
  /** Columns; `{ base, sm }`: `base` on a phone, `sm` from 48em. */
  cols: number | { base: number; sm: number }
  /** Between the cells; md by default. */
  spacing?: Space
}

/** Children in equal columns. */
export function SimpleGrid({ cols, spacing, ...props }: SimpleGridProps) {
  const { style, className, rest } = boxStyle(props)
  const base = typeof cols === 'number' ? cols : cols.base
  const sm = typeof cols === 'number' ? undefined : cols.sm
  const vars = {
    '--grid-cols': base,
    '--grid-cols-sm': sm,
    '--grid-spacing': spacing === undefined ? undefined : space(spacing),
    ...style,
  } as CSSProperties
  return (
    <div
      className={join(classes.grid, className)}
      style={vars}
      data-cols-sm={sm === undefined ? undefined : true}
      {...rest}
    />
  )
}

export interface PaperProps extends DivProps {
  withBorder?: boolean
  radius?: 'sm' | 'md' | 'lg'
  /** `li`: a card that is an item of a list. */
  component?: 'div' | 'li'
}

/** A card: the page's background colour, rounded, with a border if asked. */
export const Paper = forwardRef<HTMLDivElement, PaperProps>(function Paper(
  { withBorder, radius, component = 'div', ...props },
  ref,
) {
  const { style, className, rest } = boxStyle(props)
  const vars = {
    '--paper-radius': radius ? `var(--mantine-radius-${radius})` : undefined,
    ...style,
  } as CSSProperties
  // An <li> takes the same attributes; typed as a <div> for the one element.
  const Component = component as 'div'
  return (
    <Component
      ref={ref}
      className={join(classes.paper, className)}
      style={vars}
      data-with-border={withBorder || undefined}
      {...rest}
    />
  )
})

type ThemeColor = 'blue' | 'red' | 'orange' | 'teal' | 'gray' | 'cyan'
type Shade = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9
/**
 * A text colour: `dimmed`, a theme colour (its text shade, 4.5:1 on white), a colour's shade
 * (`red.9`), or a CSS variable.
 */
export type TextColor = 'dimmed' | ThemeColor | `${ThemeColor}.${Shade}` | `var(${string})`

/** The CSS colour of a TextColor, as Mantine resolved the same words. */
export function textColor(color: TextColor): string {
  if (color === 'dimmed') return 'var(--mantine-color-dimmed)'
  if (color.startsWith('var(')) return color
  const [name, shade] = color.split('.')
  return shade === undefined
    ? `var(--mantine-color-${name}-text)`
    : `var(--mantine-color-${name}-${shade})`
}

export interface TextProps
  extends Omit<BoxProps, 'bg'>, Omit<ComponentPropsWithoutRef<'p'>, 'color'> {
  /** The theme's font size and its line height; md by default. */
  size?: Spacing
  /** Only the font size (the line height stays the size's). */
  fz?: Spacing
  c?: TextColor
  fw?: 400 | 500 | 600 | 700
  tt?: 'uppercase'
  lh?: number
  /** One line, cut with an ellipsis. */
  truncate?: boolean | 'end'
  /** The size and weight of the text around it. */
  inherit?: boolean
  /** `span` inside a line or a button; a paragraph by default. */
  component?: 'p' | 'span' | 'div'
}

/** Text in the theme's sizes and colours. */
export function Text({
  size,
  fz,
  c,
  fw,
  tt,
  lh,
  truncate,
  inherit,
  component: Component = 'p',
  ...props
}: TextProps) {
  const { style, className, rest } = boxStyle(props)
  const vars = {
    '--text-fz': size ? `var(--mantine-font-size-${size})` : undefined,
    '--text-lh': size ? `var(--mantine-line-height-${size})` : undefined,
    fontSize: fz ? `var(--mantine-font-size-${fz})` : undefined,
    color: c ? textColor(c) : undefined,
    fontWeight: fw,
    textTransform: tt,
    lineHeight: lh,
    ...style,
  } as CSSProperties
  return (
    <Component
      className={join(classes.text, className)}
      style={vars}
      data-truncate={truncate ? true : undefined}
      data-inherit={inherit || undefined}
      {...rest}
    />
  )
}

export interface TitleProps extends BoxProps, ComponentPropsWithoutRef<'h2'> {
  /** The heading's level: h1…h4; its size is the level's unless `fz` says otherwise. */
  order: 1 | 2 | 3 | 4
  fz?: Spacing
  /** At most this many lines, the last cut with an ellipsis. */
  lineClamp?: number
}

/** A heading in the theme's heading font. */
export function Title({ order, fz, lineClamp, ...props }: TitleProps) {
  const { style, className, rest } = boxStyle(props)
  const Heading = `h${order}` as const
  const vars = {
    '--title-fz': fz ? `var(--mantine-font-size-${fz})` : `var(--mantine-h${order}-font-size)`,
    '--title-fw': `var(--mantine-h${order}-font-weight)`,
    '--title-lh': `var(--mantine-h${order}-line-height)`,
    '--line-clamp': lineClamp,
    ...style,
  } as CSSProperties
  return (
    <Heading
      className={join(classes.title, className)}
      style={vars}
      data-line-clamp={lineClamp ? true : undefined}
      {...rest}
    />
  )
}

/** Text for screen readers only. */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return <span className={classes.visuallyHidden}>{children}</span>
}

/** A thin horizontal line between parts of a panel. */
export function Divider() {
  return <hr className={classes.divider} />
}

/** A tinted tile holding an icon, decorative (hidden from screen readers). */
export function IconTile({
  size,
  radius,
  color = 'blue',
  children,
}: {
  /** Pixels. */
  size: number
  /** Pixels, or the theme's radius. */
  radius: number | 'md'
  color?: 'blue' | 'cyan'
  children: ReactNode
}) {
  const vars = {
    '--tile-size': length(size),
    '--tile-radius': radius === 'md' ? 'var(--mantine-radius-md)' : length(radius),
  } as CSSProperties
  return (
    <span className={classes.iconTile} style={vars} data-color={color} aria-hidden>
      {children}
    </span>
  )
}

export interface ScrollBoxProps extends DivProps {
  /** Keeps room for the scroll bar, so content does not move when it appears. */
  stableGutter?: boolean
}

/** A region that scrolls when its content is larger, with thin scroll bars. */
export const ScrollBox = forwardRef<HTMLDivElement, ScrollBoxProps>(function ScrollBox(
  { stableGutter, ...props },
  ref,
) {
  const { style, className, rest } = boxStyle(props)
  return (
    <div
      ref={ref}
      className={join(classes.scroll, className)}
      style={style}
      data-gutter={stableGutter || undefined}
      {...rest}
    />
  )
})
