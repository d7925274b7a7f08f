import { useLingui } from '@lingui/react/macro'
import { lazy, useState } from 'react'
import { MantineScope } from '../../ui/mantine-scope.tsx'
import { UserMenuTrigger } from './user-menu-trigger.tsx'
import { useSessionUser } from './use-session-user.ts'

const loadDropdown = () => import('./user-menu-dropdown.tsx')
const UserMenuDropdown = lazy(() => loadDropdown().then((m) => ({ default: m.UserMenuDropdown })))

/**
 * Top bar menu: who is signed in, change display name, sign out. Until first used it is only the
 * avatar button (no Mantine); hovering or focusing it prefetches the menu, clicking opens it.
 */
export function UserMenu() {
  const { t } = useLingui()
  const user = useSessionUser()
  const [wanted, setWanted] = useState(false)
  const name = user?.name || t`Пользователь`
  const trigger = (
    <UserMenuTrigger
      name={name}
      aria-label={t`${name}: меню пользователя`}
      aria-haspopup="menu"
      onPointerEnter={() => void loadDropdown()}
      onFocus={() => void loadDropdown()}
      onClick={() => setWanted(true)}
    />
  )
  if (!wanted) return trigger
  return (
    <MantineScope fallback={trigger}>
      <UserMenuDropdown user={user} name={name} />
    </MantineScope>
  )
}
