import { Trans } from '@lingui/react/macro'
import { IconLayoutBoardSplit } from '@tabler/icons-react'
import classes from './logo.module.css'

/**
 * The product's mark and name. `nameFromWide`: the name shows only on wide screens (the header of
 * a tablet in portrait needs the room for the workspace and the sync status).
 */
export function Logo({
  size = 'md',
  nameFromWide = false,
}: {
  size?: 'md' | 'lg'
  nameFromWide?: boolean
}) {
  const large = size === 'lg'
  return (
    <div className={classes.logo} data-size={size} data-name-from-wide={nameFromWide || undefined}>
      <span className={classes.mark} aria-hidden>
        <IconLayoutBoardSplit size={large ? 26 : 20} stroke={1.8} />
      </span>
      <span className={classes.name}>
        <Trans>Промо-конструктор</Trans>
      </span>
    </div>
  )
}
