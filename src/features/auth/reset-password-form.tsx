import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Anchor, Button, PasswordInput, Stack } from '@mantine/core'
import { IconAlertCircle } from '@tabler/icons-react'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import * as v from 'valibot'
import { ApiError } from '../../api/client.ts'
import { resetPassword } from '../../api/auth.ts'
import { ResetPasswordInput } from '../../domain/user.ts'
import { LIMITS } from '../../domain/validation.ts'
import { AuthCard } from '../../ui/auth-card.tsx'
import { notifySuccess } from '../../ui/notify.tsx'
import { FormAlert } from './form-alert.tsx'
import { useFormState } from './use-form-state.ts'

const ResetForm = v.object({ password: ResetPasswordInput.entries.password })

export function ResetPasswordForm({
  token,
  onDone,
  reset = resetPassword,
}: {
  token: string
  onDone: () => void
  /** The reset call (replaceable in tests). */
  reset?: typeof resetPassword
}) {
  const { t } = useLingui()
  const minLength = LIMITS.password.min
  const [linkRefused, setLinkRefused] = useState(false)
  const form = useFormState(
    { password: '', confirm: '' },
    ResetForm,
    async ({ password }) => {
      try {
        await reset({ token, password })
      } catch (error) {
        // The server refuses the link itself (used, replaced by a newer one, or expired).
        if (error instanceof ApiError && error.fields.token) return setLinkRefused(true)
        throw error
      }
      notifySuccess(t`Пароль изменён. Войдите с новым паролем.`)
      onDone()
    },
    {
      check: (values) =>
        values.confirm !== values.password ? { confirm: t`Пароли не совпадают` } : {},
    },
  )

  const footer = (
    <Anchor component={Link} to="/pages/login" fw={500}>
      <Trans>Вернуться ко входу</Trans>
    </Anchor>
  )

  if (linkRefused) {
    return (
      <AuthCard title={t`Ссылка больше не действует`} footer={footer}>
        <Stack gap="md">
          <Alert color="orange" icon={<IconAlertCircle size={20} />} role="alert">
            <Trans>
              Эта ссылка для сброса пароля уже использована, заменена более новой или устарела.
              Запросите новую — она придёт на ту же почту.
            </Trans>
          </Alert>
          <Button component={Link} to="/pages/forgot-password" size="md" fullWidth>
            <Trans>Отправить новую ссылку</Trans>
          </Button>
        </Stack>
      </AuthCard>
    )
  }

  if (!token.trim()) {
    return (
      <AuthCard title={t`Новый пароль`} footer={footer}>
        <Alert color="orange" icon={<IconAlertCircle size={20} />}>
          <Trans>
            Ссылка неполная: в ней нет кода сброса. Запросите новую ссылку на странице{' '}
            <Anchor component={Link} to="/pages/forgot-password">
              восстановления пароля
            </Anchor>
            .
          </Trans>
        </Alert>
      </AuthCard>
    )
  }

  return (
    <AuthCard
      title={t`Новый пароль`}
      subtitle={t`Придумайте новый пароль для входа`}
      footer={footer}
    >
      <form onSubmit={form.onSubmit} noValidate>
        <Stack gap="md">
          <PasswordInput
            label={t`Новый пароль`}
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
            autoFocus
          />
          <PasswordInput
            label={t`Повторите пароль`}
            name="confirm"
            autoComplete="new-password"
            size="md"
            value={form.values.confirm}
            onChange={(event) => form.set('confirm')(event.currentTarget.value)}
            error={form.errors.confirm}
            // Mantine marks only the wrapper; screen readers need it on the input.
            aria-invalid={Boolean(form.errors.confirm)}
            required
          />
          <FormAlert message={form.errors._} />
          <Button type="submit" size="md" fullWidth loading={form.submitting}>
            <Trans>Сохранить пароль</Trans>
          </Button>
        </Stack>
      </form>
    </AuthCard>
  )
}
