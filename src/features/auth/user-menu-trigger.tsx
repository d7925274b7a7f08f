import { Avatar, Group, Text, UnstyledButton } from '@mantine/core'
import { IconChevronDown } from '@tabler/icons-react'
import { forwardRef, type ComponentPropsWithoutRef } from 'react'
import { initials } from './initials.ts'

export interface UserMenuTriggerProps extends ComponentPropsWithoutRef<'button'> {
  name: string
}

/** The avatar button of the top bar (shared by the light placeholder and the real menu). */
export const UserMenuTrigger = forwardRef<HTMLButtonElement, UserMenuTriggerProps>(
  function UserMenuTrigger({ name, ...rest }, ref) {
    return (
      <UnstyledButton ref={ref} style={{ borderRadius: 999 }} {...rest}>
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
    )
  },
)
