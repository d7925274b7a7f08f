import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Stack, Text } from '../../ui/layout.tsx'
import { IconLock } from '@tabler/icons-react'
import * as v from 'valibot'
import { login as apiLogin } from '../../api/auth.ts'
import type { AuthResponse, User } from '../../domain/user.ts'
import { LoginInput } from '../../domain/user.ts'
import { AuthCard } from '../../ui/auth-card.tsx'
import { Button } from '../../ui/button.tsx'
import { AnchorLink, ButtonLink } from '../../ui/links.tsx'
import { PasswordInput } from '../../ui/password-input.tsx'
import { InitialsAvatar } from '../../ui/avatar.tsx'
import { startSession } from './session.ts'
import { FormAlert } from './form-alert.tsx'
import { useFormState } from './use-form-state.ts'
import { useSessionUser } from './use-session-user.ts'

const PasswordOnly = v.object({ password: LoginInput.entries.password })

/**
 * Asks the stored user for the password again (the token expired or the server answered 401).
 * Nothing local is cleared: the outbox and the mirror wait for the new token.
 */
export function LockScreen(props: {
  onUnlocked: () => void
  login?: (input: LoginInput) => Promise<AuthResponse>
}) {
  const user = useSessionUser()
  if (!user) return <NoStoredUser />
  return <LockForm user={user} {...props} />
}

function NoStoredUser() {
  const { t } = useLingui()
  return (
    <AuthCard title={t`Сеанс завершён`} subtitle={t`Войдите, чтобы продолжить`}>
      <ButtonLink to="/pages/login" fullWidth>
        <Trans>Перейти ко входу</Trans>
      </ButtonLink>
    </AuthCard>
  )
}

function LockForm({
  user,
  onUnlocked,
  login = apiLogin,
}: {
  user: User
  onUnlocked: () => void
  login?: (input: LoginInput) => Promise<AuthResponse>
}) {
  const { t } = useLingui()
  const form = useFormState(
    { password: '' },
    PasswordOnly,
    async ({ password }) => {
      startSession(await login({ email: user.email, password }))
      onUnlocked()
    },
    { alwaysNotify: true },
  )
  return (
    <AuthCard
      title={t`Экран заблокирован`}
      subtitle={t`Сеанс истёк. Введите пароль, чтобы продолжить — несохранённые изменения остаются на этом устройстве.`}
      footer={
        <AnchorLink to="/pages/login" style={{ fontSize: 'var(--mantine-font-size-sm)' }}>
          <Trans>Войти под другим аккаунтом</Trans>
        </AnchorLink>
      }
    >
      <form onSubmit={form.onSubmit} noValidate>
        <Stack gap="md">
          <Group gap="md" wrap="nowrap">
            <InitialsAvatar name={user.name} size={56} />
            <div style={{ minWidth: 0 }}>
              <Text fw={600} truncate>
                {user.name}
              </Text>
              <Text size="sm" c="dimmed" truncate>
                {user.email}
              </Text>
            </div>
          </Group>
          {/* Lets password managers match the saved credentials. */}
          <input type="hidden" name="email" autoComplete="email" value={user.email} readOnly />
          <PasswordInput
            label={t`Пароль`}
            name="password"
            autoComplete="current-password"
            leftSection={<IconLock size={18} />}
            value={form.values.password}
            onChange={(event) => form.set('password')(event.currentTarget.value)}
            error={form.errors.password}
            required
            autoFocus
          />
          <FormAlert message={form.errors._} />
          <Button type="submit" fullWidth loading={form.submitting}>
            <Trans>Разблокировать</Trans>
          </Button>
        </Stack>
      </form>
    </AuthCard>
  )
}
