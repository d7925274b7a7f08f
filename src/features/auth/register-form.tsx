import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { register as apiRegister } from '../../api/auth.ts'
import type { AuthResponse } from '../../domain/user.ts'
import { RegisterInput } from '../../domain/user.ts'
import { LIMITS } from '../../domain/validation.ts'
import { AuthCard } from '../../ui/auth-card.tsx'
import { notifySuccess } from '../../ui/notify.tsx'
import { startSession } from './session.ts'
import { FormAlert } from './form-alert.tsx'
import { useFormState } from './use-form-state.ts'

export interface RegisterFormProps {
  onRegistered: () => void
  register?: (input: RegisterInput) => Promise<AuthResponse>
}

export function RegisterForm({ onRegistered, register = apiRegister }: RegisterFormProps) {
  const { t } = useLingui()
  const minLength = LIMITS.password.min
  const form = useFormState({ name: '', email: '', password: '' }, RegisterInput, async (input) => {
    startSession(await register(input))
    notifySuccess(t`Добро пожаловать! Аккаунт создан.`, t`Регистрация`)
    onRegistered()
  })

  return (
    <AuthCard
      title={t`Регистрация`}
      subtitle={t`Создайте аккаунт, чтобы собирать промо-страницы`}
      footer={
        <Trans>
          Уже есть аккаунт?{' '}
          <Anchor component={Link} to="/pages/login" fw={500}>
            Войти
          </Anchor>
        </Trans>
      }
    >
      <form onSubmit={form.onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t`Имя`}
            name="name"
            autoComplete="name"
            size="md"
            value={form.values.name}
            onChange={(event) => form.set('name')(event.currentTarget.value)}
            error={form.errors.name}
            required
            autoFocus
          />
          <TextInput
            label={t`Электронная почта`}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            size="md"
            value={form.values.email}
            onChange={(event) => form.set('email')(event.currentTarget.value)}
            error={form.errors.email}
            required
          />
          <PasswordInput
            label={t`Пароль`}
            // The hint says the rule; once broken, the error says it instead (not twice).
            description={form.errors.password ? undefined : t`Не короче ${minLength} символов`}
            name="password"
            autoComplete="new-password"
            size="md"
            value={form.values.password}
            onChange={(event) => form.set('password')(event.currentTarget.value)}
            error={form.errors.password}
            // Mantine marks only the wrapper; screen readers need it on the input.
            aria-invalid={Boolean(form.errors.password)}
            required
          />
          <FormAlert message={form.errors._} />
          <Button type="submit" size="md" fullWidth loading={form.submitting}>
            <Trans>Создать аккаунт</Trans>
          </Button>
        </Stack>
      </form>
    </AuthCard>
  )
}
