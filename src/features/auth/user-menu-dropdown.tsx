import { Trans, useLingui } from '@lingui/react/macro'
import { Text } from '../../ui/layout.tsx'
import { Menu } from '../../ui/menu.ts'
import { useDisclosure } from '../../ui/use-disclosure.ts'
import { IconLogout, IconUserEdit } from '@tabler/icons-react'
import { useRouter } from '@tanstack/react-router'
import { useCallback, useRef } from 'react'
import { ProfileNameModal } from './profile-name-modal.tsx'
import { signOut } from './session.ts'
import { UserMenuTrigger } from './user-menu-trigger.tsx'
import type { User } from '../../domain/user.ts'

/**
 * The real menu: loaded on the first click so the popover code stays out of the first load. Its
 * trigger replaces the light one that had the focus, so closing gives the focus back to this
 * trigger rather than to the element that is gone (the page's body).
 */
export function UserMenuDropdown({ user, name }: { user: User | null; name: string }) {
  const { t } = useLingui()
  const router = useRouter()
  const [modalOpened, modal] = useDisclosure(false)
  const triggerRef = useRef<HTMLButtonElement>(null)
  // Each opening mounts the dropdown once: its first item takes the focus then.
  const focusFirstItem = useCallback((dropdown: HTMLElement | null) => {
    if (!dropdown) return
    requestAnimationFrame(() =>
      dropdown.querySelector<HTMLElement>('[role="menuitem"]:not(:disabled)')?.focus(),
    )
  }, [])

  const onSignOut = async () => {
    if (await signOut()) await router.navigate({ to: '/pages/login', search: {} })
  }

  return (
    <>
      <Menu
        position="bottom-end"
        width={240}
        shadow="md"
        radius="md"
        defaultOpened
        // Mantine's trap puts a presentational focus stop inside role="menu" (an ARIA error);
        // the first item takes the focus instead (below), as a menu button's menu does.
        trapFocus={false}
        withInitialFocusPlaceholder={false}
        onClose={() => requestAnimationFrame(() => triggerRef.current?.focus())}
        withinPortal
      >
        <Menu.Target>
          <UserMenuTrigger
            ref={triggerRef}
            name={name}
            aria-label={t`${name}: меню пользователя`}
          />
        </Menu.Target>
        <Menu.Dropdown ref={focusFirstItem}>
          <Menu.Label>
            <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
              {name}
            </Text>
            {user?.email ? (
              <Text size="xs" c="dimmed" truncate>
                {user.email}
              </Text>
            ) : null}
          </Menu.Label>
          <Menu.Divider />
          <Menu.Item leftSection={<IconUserEdit size={18} />} onClick={modal.open} disabled={!user}>
            <Trans>Изменить имя</Trans>
          </Menu.Item>
          <Menu.Item
            color="red.9"
            leftSection={<IconLogout size={18} />}
            onClick={() => void onSignOut()}
          >
            <Trans>Выйти</Trans>
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {user ? <ProfileNameModal opened={modalOpened} onClose={modal.close} user={user} /> : null}
    </>
  )
}
