import { Trans, useLingui } from '@lingui/react/macro'
import { Stack } from '../../ui/layout.tsx'
import { IconAlertCircle } from '@tabler/icons-react'
import { useState } from 'react'
import * as v from 'valibot'
import { ApiError } from '../../api/client.ts'
import { resetPassword } from '../../api/auth.ts'
import { ResetPasswordInput } from '../../domain/user.ts'
import { LIMITS } from '../../domain/validation.ts'
import { Alert } from '../../ui/alert.tsx'
import { AuthCard } from '../../ui/auth-card.tsx'
import { Button } from '../../ui/button.tsx'
import { AnchorLink, ButtonLink } from '../../ui/links.tsx'
import { PasswordInput } from '../../ui/password-input.tsx'
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
    <AnchorLink to="/pages/login" style={{ fontWeight: 500 }}>
      <Trans>Вернуться ко входу</Trans>
    </AnchorLink>
  )

  if (linkRefused) {
    return (
      <AuthCard title={t`Ссылка больше не действует`} footer={footer}>
        <Stack gap="md">
          <Alert color="orange" icon={IconAlertCircle} role="alert">
            <Trans>
              Эта ссылка для сброса пароля уже использована, заменена более новой или устарела.
              Запросите новую — она придёт на ту же почту.
            </Trans>
          </Alert>
          <ButtonLink to="/pages/forgot-password" fullWidth>
            <Trans>Отправить новую ссылку</Trans>
          </ButtonLink>
        </Stack>
      </AuthCard>
    )
  }

  if (!token.trim()) {
    return (
      <AuthCard title={t`Новый пароль`} footer={footer}>
        <Alert color="orange" icon={IconAlertCircle}>
          <Trans>
            Ссылка неполная: в ней нет кода сброса. Запросите новую ссылку на странице{' '}
            <AnchorLink to="/pages/forgot-password">восстановления пароля</AnchorLink>.
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
            value={form.values.password}
            onChange={(event) => form.set('password')(event.currentTarget.value)}
            error={form.errors.password}
            required
            autoFocus
          />
          <PasswordInput
            label={t`Повторите пароль`}
            name="confirm"
            autoComplete="new-password"
            value={form.values.confirm}
            onChange={(event) => form.set('confirm')(event.currentTarget.value)}
            error={form.errors.confirm}
            required
          />
          <FormAlert message={form.errors._} />
          <Button type="submit" fullWidth loading={form.submitting}>
            <Trans>Сохранить пароль</Trans>
          </Button>
        </Stack>
      </form>
    </AuthCard>
  )
}
