import { t } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Stack, Text } from '../../ui/layout.tsx'
import { IconRefresh } from '@tabler/icons-react'
import { useState } from 'react'
import { Button } from '../../ui/button.tsx'
import { errorMessage } from '../../ui/field-error.ts'
import { hideNotification, notifyError, showNotice } from '../../ui/notify.tsx'

export const UPDATE_PROMPT_ID = 'app-update'

/** «Доступна новая версия» with «Обновить», bottom right, until the user acts or closes it. */
export function showUpdatePrompt(accept: () => Promise<void>): void {
  hideNotification(UPDATE_PROMPT_ID)
  showNotice({
    id: UPDATE_PROMPT_ID,
    color: 'blue',
    title: t`Доступна новая версия`,
    message: <UpdatePromptBody accept={accept} />,
    icon: <IconRefresh size={20} />,
  })
}

function UpdatePromptBody({ accept }: { accept: () => Promise<void> }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)

  const onUpdate = async () => {
    setBusy(true)
    try {
      await accept()
    } catch (error) {
      const reason = errorMessage(error)
      notifyError(t`Не удалось подготовить обновление: ${reason}`)
      setBusy(false)
    }
  }

  return (
    <Stack gap="xs">
      <Text size="sm">
        <Trans>
          Приложение обновится и перезагрузится. Изменения, ещё не отправленные на сервер,
          сохранятся.
        </Trans>
      </Text>
      <Group justify="flex-end">
        <Button loading={busy} onClick={() => void onUpdate()}>
          <Trans>Обновить</Trans>
        </Button>
      </Group>
    </Stack>
  )
}
