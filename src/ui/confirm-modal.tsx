import { Trans } from '@lingui/react/macro'
import { Modal } from '@mantine/core'
import { Button } from './button.tsx'
import { Group, Text } from './layout.tsx'
import type { ConfirmRequest } from './confirm.tsx'

export function ConfirmModal({
  request,
  answer,
}: {
  request: ConfirmRequest
  answer: (ok: boolean) => void
}) {
  return (
    <Modal opened onClose={() => answer(false)} title={request.title} centered radius="md">
      <Text size="sm">{request.message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => answer(false)}>
          {request.cancelLabel ?? <Trans>Отмена</Trans>}
        </Button>
        <Button color={request.danger ? 'red' : undefined} onClick={() => answer(true)} autoFocus>
          {request.confirmLabel}
        </Button>
      </Group>
    </Modal>
  )
}
