import { Trans, useLingui } from '@lingui/react/macro'
import { Stack } from '../../ui/layout.tsx'
import { register as apiRegister } from '../../api/auth.ts'
import type { AuthResponse } from '../../domain/user.ts'
import { RegisterInput } from '../../domain/user.ts'
import { LIMITS } from '../../domain/validation.ts'
import { AuthCard } from '../../ui/auth-card.tsx'
import { Button } from '../../ui/button.tsx'
import { AnchorLink } from '../../ui/links.tsx'
import { PasswordInput } from '../../ui/password-input.tsx'
import { TextInput } from '../../ui/text-input.tsx'
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
          <AnchorLink to="/pages/login" style={{ fontWeight: 500 }}>
            Войти
          </AnchorLink>
        </Trans>
      }
    >
      <form onSubmit={form.onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t`Имя`}
            name="name"
            autoComplete="name"
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
            value={form.values.password}
            onChange={(event) => form.set('password')(event.currentTarget.value)}
            error={form.errors.password}
            required
          />
          <FormAlert message={form.errors._} />
          <Button type="submit" fullWidth loading={form.submitting}>
            <Trans>Создать аккаунт</Trans>
          </Button>
        </Stack>
      </form>
    </AuthCard>
  )
}
