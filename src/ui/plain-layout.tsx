import type { ReactNode } from 'react'
import { Logo } from './logo.tsx'
import classes from './plain-layout.module.css'

/** Centered layout of the sign-in and status pages (Mantine-free: the error screens use it). */
export function PlainLayout({ children }: { children: ReactNode }) {
  return (
    <div className={classes.page}>
      <div className={classes.center}>
        <header className={classes.logo}>
          <Logo size="lg" />
        </header>
        <main className={classes.content}>{children}</main>
      </div>
    </div>
  )
}
