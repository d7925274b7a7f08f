import type { CSSProperties } from 'react'
import classes from './progress.module.css'

/**
 * A thin bar filled to `value` per cent (Mantine's Progress of size sm): a `progressbar` with its
 * value for screen readers, named by `aria-label`.
 */
export function Progress({ value, 'aria-label': label }: { value: number; 'aria-label': string }) {
  const percent = Math.min(100, Math.max(0, Number.isFinite(value) ? value : 0))
  return (
    <div className={classes.root}>
      <div
        className={classes.bar}
        style={{ '--progress-value': `${percent}%` } as CSSProperties}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
      />
    </div>
  )
}
