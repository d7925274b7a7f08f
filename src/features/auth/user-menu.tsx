import { Trans, useLingui } from '@lingui/react/macro'
import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconChevronDown, IconLogout, IconUserEdit } from '@tabler/icons-react'
import { useRouter } from '@tanstack/react-router'
import { initials } from './lock-screen.tsx'
import { ProfileNameModal } from './profile-name-modal.tsx'
import { signOut } from './session.ts'
import { useSessionUser } from './use-session-user.ts'

/** Top bar menu: who is signed in, change display name, sign out. */
export function UserMenu() {
  const { t } = useLingui()
  const user = useSessionUser()
  const router = useRouter()
  const [modalOpened, modal] = useDisclosure(false)

  const onSignOut = async () => {
    if (await signOut()) await router.navigate({ to: '/pages/login', search: {} })
  }

  const name = user?.name || t`Пользователь`
  return (
    <>
      <Menu position="bottom-end" width={240} shadow="md" radius="md" withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={t`Меню пользователя`} style={{ borderRadius: 999 }}>
            <Group gap={8} wrap="nowrap">
              <Avatar color="blue" radius="xl" size={36}>
                {initials(name)}
              </Avatar>
              <Text size="sm" fw={500} visibleFrom="sm" maw={160} truncate>
                {name}
              </Text>
              <IconChevronDown size={16} aria-hidden />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
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
            color="red"
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
