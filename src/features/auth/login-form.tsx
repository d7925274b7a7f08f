import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Stack } from '../../ui/layout.tsx'
import { IconAt, IconLock } from '@tabler/icons-react'
import { login as apiLogin } from '../../api/auth.ts'
import type { AuthResponse } from '../../domain/user.ts'
import { LoginInput } from '../../domain/user.ts'
import { AuthCard } from '../../ui/auth-card.tsx'
import { Button } from '../../ui/button.tsx'
import { AnchorLink } from '../../ui/links.tsx'
import { PasswordInput } from '../../ui/password-input.tsx'
import { TextInput } from '../../ui/text-input.tsx'
import { startSession } from './session.ts'
import { FormAlert } from './form-alert.tsx'
import { useFormState } from './use-form-state.ts'

export interface LoginFormProps {
  /** Called after the session is stored. */
  onSignedIn: () => void
  /** The sign-in call (replaceable in tests). */
  login?: (input: LoginInput) => Promise<AuthResponse>
}

export function LoginForm({ onSignedIn, login = apiLogin }: LoginFormProps) {
  const { t } = useLingui()
  const form = useFormState(
    { email: '', password: '' },
    LoginInput,
    async (input) => {
      startSession(await login(input))
      onSignedIn()
    },
    { alwaysNotify: true },
  )

  return (
    <AuthCard
      title={t`Вход`}
      subtitle={t`Войдите, чтобы продолжить работу с проектами`}
      footer={
        <Trans>
          Нет аккаунта?{' '}
          <AnchorLink to="/pages/register" style={{ fontWeight: 500 }}>
            Зарегистрироваться
          </AnchorLink>
        </Trans>
      }
    >
      <form onSubmit={form.onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t`Электронная почта`}
            placeholder={t`name@example.ru`}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            leftSection={<IconAt size={18} />}
            value={form.values.email}
            onChange={(event) => form.set('email')(event.currentTarget.value)}
            error={form.errors.email}
            required
            autoFocus
          />
          <PasswordInput
            label={t`Пароль`}
            name="password"
            autoComplete="current-password"
            leftSection={<IconLock size={18} />}
            value={form.values.password}
            onChange={(event) => form.set('password')(event.currentTarget.value)}
            error={form.errors.password}
            required
          />
          <Group justify="flex-end" mt={-6}>
            <AnchorLink
              to="/pages/forgot-password"
              style={{ fontSize: 'var(--mantine-font-size-sm)' }}
            >
              <Trans>Забыли пароль?</Trans>
            </AnchorLink>
          </Group>
          <FormAlert message={form.errors._} />
          <Button type="submit" fullWidth loading={form.submitting}>
            <Trans>Войти</Trans>
          </Button>
        </Stack>
      </form>
    </AuthCard>
  )
}
