import { Trans } from '@lingui/react/macro'
import { Button, Group, Modal, Text } from '@mantine/core'
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
        <Button variant="default" size="md" onClick={() => answer(false)}>
          {request.cancelLabel ?? <Trans>Отмена</Trans>}
        </Button>
        <Button
          color={request.danger ? 'red' : undefined}
          size="md"
          onClick={() => answer(true)}
          autoFocus
        >
          {request.confirmLabel}
        </Button>
      </Group>
    </Modal>
  )
}
