import './directory-messages.ts'
import { useLingui } from '@lingui/react/macro'
import { IconUser } from '@tabler/icons-react'
import { useState, type CSSProperties } from 'react'
import { useFileUrl } from '../../mirror/live.ts'
import classes from './directory-lists.module.css'
import { initials } from '../../ui/initials.ts'

// Drawn without Mantine: the specialists list shows a photo in every row and is a first screen.

/** The colours Mantine's Avatar picks initials from (color="initials"), so a name keeps its colour. */
const INITIALS_COLORS = [
  'blue',
  'cyan',
  'grape',
  'green',
  'indigo',
  'lime',
  'orange',
  'pink',
  'red',
  'teal',
  'violet',
]

export function initialsColor(name: string): string {
  let hash = 0
  for (let i = 0; i < name.length; i += 1) {
    hash = (hash << 5) - hash + name.charCodeAt(i)
    hash |= 0
  }
  return INITIALS_COLORS[Math.abs(hash) % INITIALS_COLORS.length] ?? 'blue'
}

/** A specialist's photo; an upload still waiting in IndexedDB shows from there. */
export function SpecialistPhoto({
  url,
  name,
  size = 64,
}: {
  url: string
  name?: string
  size?: number
}) {
  const { t } = useLingui()
  const src = useFileUrl(url)
  // The address whose image failed to load: initials instead, until the address changes.
  const [failed, setFailed] = useState<string | null>(null)
  const alt = name ?? t`Фото специалиста`
  const color = name ? initialsColor(name) : null
  const style = {
    width: size,
    height: size,
    ...(color
      ? {
          '--avatar-bg': `var(--mantine-color-${color}-light)`,
          '--avatar-color': `var(--mantine-color-${color}-light-color)`,
        }
      : {}),
  } as CSSProperties
  return (
    <span className={classes.avatar} style={style}>
      {src && failed !== src ? (
        <img src={src} alt={alt} onError={() => setFailed(src)} />
      ) : (
        <span className={classes.initials} style={{ fontSize: size / 2.5 }} title={alt}>
          {name ? initials(name) : <IconUser aria-hidden />}
        </span>
      )}
    </span>
  )
}
