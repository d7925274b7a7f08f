import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Stack } from '../../ui/layout.tsx'
import { useState, type FormEvent } from 'react'
import * as v from 'valibot'
import { updateProfile as apiUpdateProfile } from '../../api/auth.ts'
import { UpdateProfileInput, type User } from '../../domain/user.ts'
import { Button } from '../../ui/button.tsx'
import { apiFieldErrors, errorMessage, issuesToFieldErrors } from '../../ui/field-error.ts'
import { Modal } from '../../ui/modal.ts'
import { notifyError, notifySuccess } from '../../ui/notify.tsx'
import { TextInput } from '../../ui/text-input.tsx'
import { updateUser } from './session.ts'

/**
 * How long the failure notification of a display-name update stays
 * (docs/app-shell.md "Errors and texts").
 */
export const PROFILE_ERROR_AUTOCLOSE_MS = 8800

export function ProfileNameModal(props: {
  opened: boolean
  onClose: () => void
  user: User
  updateProfile?: (input: { name: string }) => Promise<User>
}) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} centered radius="md" title={<Title />}>
      {/* Remounted on each opening so it starts from the current name. */}
      {props.opened ? <NameForm {...props} /> : null}
    </Modal>
  )
}

function Title() {
  return <Trans>Отображаемое имя</Trans>
}

function NameForm({
  user,
  onClose,
  updateProfile = apiUpdateProfile,
}: {
  user: User
  onClose: () => void
  updateProfile?: (input: { name: string }) => Promise<User>
}) {
  const { t } = useLingui()
  const [name, setName] = useState(user.name)
  const [error, setError] = useState<string | undefined>()
  const [saving, setSaving] = useState(false)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (saving) return
    const parsed = v.safeParse(UpdateProfileInput, { name })
    if (!parsed.success) {
      setError(issuesToFieldErrors(parsed.issues).name)
      return
    }
    setSaving(true)
    Promise.resolve(parsed.output)
      .then((input) => updateProfile(input))
      .then((updated) => {
        updateUser(updated)
        notifySuccess(t`Имя обновлено`)
        onClose()
      })
      .catch((failure: unknown) => {
        const fields = apiFieldErrors(failure)
        if (fields.name) setError(fields.name)
        notifyError(errorMessage(failure), { autoClose: PROFILE_ERROR_AUTOCLOSE_MS })
      })
      .finally(() => setSaving(false))
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t`Имя`}
          name="name"
          autoComplete="name"
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value)
            setError(undefined)
          }}
          error={error}
          data-autofocus
          required
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Отмена</Trans>
          </Button>
          <Button type="submit" loading={saving}>
            <Trans>Сохранить</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
