import { useLingui } from '@lingui/react/macro'
import {
  IconBuildingHospital,
  IconChartBar,
  IconLayoutGrid,
  IconMapPin,
  IconMessages,
  IconPlugConnected,
  IconUsers,
  type Icon,
} from '@tabler/icons-react'
import { Link, useRouterState } from '@tanstack/react-router'
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import classes from './app-layout.module.css'
import { VisuallyHidden } from './layout.tsx'
import { Logo } from './logo.tsx'

export interface AppLayoutProps {
  /** Top bar slot: the workspace switcher. */
  workspaceSwitcher?: ReactNode
  /** Top bar slot: the sync status indicator. */
  syncStatus?: ReactNode
  languageSwitch?: ReactNode
  userMenu?: ReactNode
  /** Something at the end of a section's link: the number of new requests beside «Обращения». */
  navBadges?: Partial<Record<NavTarget, ReactNode>>
  children: ReactNode
}

export type NavTarget =
  | '/projects'
  | '/analytics'
  | '/appeal'
  | '/integrations'
  | '/department'
  | '/locations'
  | '/specialist'

interface NavItem {
  to: NavTarget
  label: string
  icon: Icon
  /** Other path prefixes that belong to this section. */
  also?: string[]
}

/**
 * A count at the end of a section's link: shown as a red number, heard as part of the link's name
 * («Обращения, новых: 3»).
 */
export function NavBadge({ count, label }: { count: string; label: string }) {
  return (
    <>
      <span className={classes.navBadge} aria-hidden data-testid="nav-badge">
        {count}
      </span>
      <VisuallyHidden>{`, ${label}`}</VisuallyHidden>
    </>
  )
}

function isActive(pathname: string, item: NavItem): boolean {
  return [item.to, ...(item.also ?? [])].some(
    (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`),
  )
}

/**
 * Main layout: a 60 px top bar with slots and a 248 px sidebar, which is a burger drawer below the
 * md breakpoint and at every size in the canvas editor. Hand-written (no Mantine AppShell) so the
 * first load of the list pages carries no Mantine code; the look comes from Mantine's CSS variables.
 */
export function AppLayout(props: AppLayoutProps) {
  const { t } = useLingui()
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  // The drawer stays open only on the page it was opened on: leaving a page closes it.
  const [openedAt, setOpenedAt] = useState<string | null>(null)
  const opened = openedAt === pathname
  const burgerRef = useRef<HTMLButtonElement>(null)
  const navRef = useRef<HTMLElement>(null)
  const close = useCallback(() => setOpenedAt(null), [])
  // The canvas editor needs the whole width: there the sidebar is a drawer at every size.
  const canvasFirst = /^\/projects\/[^/]+\/edit\//.test(pathname)

  // An opened drawer takes the focus (the open section's link), keeps Tab inside itself and its
  // burger (the page behind is covered), and gives the focus back on Escape. Its controls are a
  // handful of links, so the trap is these few lines rather than a library on every first load.
  useEffect(() => {
    if (!opened) return
    const nav = navRef.current
    const target =
      nav?.querySelector<HTMLElement>('a[aria-current="page"]') ?? nav?.querySelector('a')
    target?.focus()
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Tab' && nav) {
        const stops = [burgerRef.current, ...nav.querySelectorAll<HTMLElement>('a[href], button')]
        const inside = stops.filter((stop): stop is HTMLElement => stop !== null)
        const first = inside[0]
        const last = inside[inside.length - 1]
        const at = document.activeElement
        const wrapTo = !inside.includes(at as HTMLElement)
          ? first
          : event.shiftKey && at === first
            ? last
            : !event.shiftKey && at === last
              ? first
              : null
        if (wrapTo) {
          event.preventDefault()
          wrapTo.focus()
        }
        return
      }
      if (event.key !== 'Escape') return
      setOpenedAt(null)
      burgerRef.current?.focus()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [opened])

  const items: NavItem[] = [
    { to: '/projects', label: t`Проекты`, icon: IconLayoutGrid, also: ['/project'] },
    { to: '/analytics', label: t`Аналитика`, icon: IconChartBar },
    { to: '/appeal', label: t`Обращения`, icon: IconMessages },
    { to: '/integrations', label: t`Интеграции`, icon: IconPlugConnected },
    { to: '/department', label: t`Отделения`, icon: IconBuildingHospital },
    { to: '/locations', label: t`Локации`, icon: IconMapPin },
    { to: '/specialist', label: t`Специалисты`, icon: IconUsers },
  ]

  return (
    <div
      className={classes.shell}
      data-canvas={canvasFirst || undefined}
      data-opened={opened || undefined}
    >
      <header className={classes.header}>
        <div className={classes.start}>
          <button
            ref={burgerRef}
            type="button"
            className={classes.burger}
            onClick={() => setOpenedAt(opened ? null : pathname)}
            // One name whatever the state: open or closed is aria-expanded.
            aria-label={t`Меню разделов`}
            aria-expanded={opened}
            aria-controls="app-sections"
          >
            <span className={classes.burgerLines} data-opened={opened || undefined} />
          </button>
          <div className={classes.logo}>
            <Logo nameFromWide />
          </div>
          {props.workspaceSwitcher ? (
            <div className={classes.slot}>{props.workspaceSwitcher}</div>
          ) : null}
        </div>
        <div className={classes.end}>
          {props.syncStatus}
          {props.languageSwitch}
          {props.userMenu}
        </div>
      </header>

      {/* Where the sidebar floats over the page (the editor), a tap beside it closes it. */}
      <div className={classes.overlay} onClick={close} aria-hidden />

      <nav id="app-sections" ref={navRef} className={classes.navbar} aria-label={t`Разделы`}>
        <div className={classes.nav}>
          {items.map((item) => {
            const active = isActive(pathname, item)
            return (
              <Link
                key={item.to}
                to={item.to}
                className={classes.link}
                data-active={active || undefined}
                aria-current={active ? 'page' : undefined}
              >
                <item.icon size={20} stroke={1.6} className={classes.icon} aria-hidden />
                <span>{item.label}</span>
                {props.navBadges?.[item.to]}
              </Link>
            )
          })}
        </div>
      </nav>

      <main className={classes.main}>{props.children}</main>
    </div>
  )
}
