import { Trans, useLingui } from '@lingui/react/macro'
import { Stack } from '../../ui/layout.tsx'
import { IconMailCheck } from '@tabler/icons-react'
import { useState } from 'react'
import { forgotPassword } from '../../api/auth.ts'
import { ForgotPasswordInput } from '../../domain/user.ts'
import { Alert } from '../../ui/alert.tsx'
import { AuthCard } from '../../ui/auth-card.tsx'
import { Button } from '../../ui/button.tsx'
import { AnchorLink } from '../../ui/links.tsx'
import { TextInput } from '../../ui/text-input.tsx'
import { FormAlert } from './form-alert.tsx'
import { useFormState } from './use-form-state.ts'

export function ForgotPasswordForm() {
  const { t } = useLingui()
  const [sentTo, setSentTo] = useState<string | null>(null)
  const form = useFormState({ email: '' }, ForgotPasswordInput, async (input) => {
    await forgotPassword(input)
    setSentTo(input.email)
  })

  return (
    <AuthCard
      title={t`Восстановление пароля`}
      subtitle={t`Укажите почту, с которой вы входите, и мы пришлём ссылку для нового пароля`}
      footer={
        <AnchorLink to="/pages/login" style={{ fontWeight: 500 }}>
          <Trans>Вернуться ко входу</Trans>
        </AnchorLink>
      }
    >
      {sentTo ? (
        <Alert color="teal" icon={IconMailCheck} title={t`Проверьте почту`}>
          <Trans>
            Если адрес {sentTo} зарегистрирован, на него придёт письмо со ссылкой для сброса пароля.
          </Trans>
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit} noValidate>
          <Stack gap="md">
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
              autoFocus
            />
            <FormAlert message={form.errors._} />
            <Button type="submit" fullWidth loading={form.submitting}>
              <Trans>Отправить ссылку</Trans>
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  )
}
