import { useLingui } from '@lingui/react/macro'
import { AppShell, Box, Burger, Group } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
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
import { useEffect, type ReactNode } from 'react'
import classes from './app-layout.module.css'
import { Logo } from './logo.tsx'

export interface AppLayoutProps {
  /** Top bar slot: the workspace switcher. */
  workspaceSwitcher?: ReactNode
  /** Top bar slot: the sync status indicator. */
  syncStatus?: ReactNode
  languageSwitch?: ReactNode
  userMenu?: ReactNode
  children: ReactNode
}

type NavTarget =
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

function isActive(pathname: string, item: NavItem): boolean {
  return [item.to, ...(item.also ?? [])].some(
    (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`),
  )
}

/** Main layout: sidebar (a burger drawer below the md breakpoint) and a top bar with slots. */
export function AppLayout(props: AppLayoutProps) {
  const { t } = useLingui()
  const [opened, { toggle, close }] = useDisclosure(false)
  const pathname = useRouterState({ select: (state) => state.location.pathname })

  // Leaving a page closes the drawer on phones and tablets in portrait.
  useEffect(close, [pathname, close])
  // The canvas editor needs the whole width: there the sidebar is a drawer at every size.
  const canvasFirst = /^\/projects\/[^/]+\/edit\//.test(pathname)

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
    <AppShell
      header={{ height: 60 }}
      navbar={{
        width: 248,
        breakpoint: 'md',
        collapsed: { mobile: !opened, desktop: canvasFirst && !opened },
      }}
      padding={canvasFirst ? 'sm' : { base: 'sm', sm: 'md', lg: 'xl' }}
      styles={{ main: { background: 'var(--mantine-color-gray-0)' } }}
    >
      <AppShell.Header px={{ base: 'sm', sm: 'md' }}>
        <Group h="100%" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom={canvasFirst ? undefined : 'md'}
              size="sm"
              aria-label={opened ? t`Скрыть меню` : t`Открыть меню`}
            />
            <Box visibleFrom="xs">
              <Logo />
            </Box>
            {props.workspaceSwitcher ? <Box miw={0}>{props.workspaceSwitcher}</Box> : null}
          </Group>
          <Group gap="sm" wrap="nowrap">
            {props.syncStatus}
            {props.languageSwitch}
            {props.userMenu}
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label={t`Разделы`}>
        <nav className={classes.nav}>
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
              </Link>
            )
          })}
        </nav>
      </AppShell.Navbar>

      <AppShell.Main>{props.children}</AppShell.Main>
    </AppShell>
  )
}
