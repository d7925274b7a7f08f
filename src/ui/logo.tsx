import { Trans } from '@lingui/react/macro'
import { IconLayoutBoardSplit } from '@tabler/icons-react'
import classes from './logo.module.css'

export function Logo({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const large = size === 'lg'
  return (
    <div className={classes.logo} data-size={size}>
      <span className={classes.mark} aria-hidden>
        <IconLayoutBoardSplit size={large ? 26 : 20} stroke={1.8} />
      </span>
      <span className={classes.name}>
        <Trans>Промо-конструктор</Trans>
      </span>
    </div>
  )
}
