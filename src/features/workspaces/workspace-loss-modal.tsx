import { Trans, useLingui } from '@lingui/react/macro'
import type { WorkspaceLoss } from '../../data/types.ts'
import { nestQuotes } from '../../domain/quotes.ts'
import { dismissWorkspaceLoss } from '../../sync/client.ts'
import { Button } from '../../ui/button.tsx'
import { Group, ScrollBox, Stack, Text } from '../../ui/layout.tsx'
import { Modal } from '../../ui/modal.ts'
import { changeKindName } from '../sync-status/index.ts'

/**
 * The notice of a lost workspace in Mantine's Modal (`WorkspaceLossNotice` in
 * workspace-loss.tsx), loaded only when there is one to tell (docs/performance.md).
 */
export function WorkspaceLossModal({ loss }: { loss: WorkspaceLoss }) {
  const { t } = useLingui()
  const name = nestQuotes(loss.name)
  const title =
    loss.reason === 'removed'
      ? t`Вас убрали из пространства «${name}»`
      : loss.reason === 'left'
        ? t`Вы покинули пространство «${name}»`
        : t`Пространство «${name}» больше вам недоступно`
  const count = loss.discarded.length
  return (
    <Modal
      opened
      onClose={() => void dismissWorkspaceLoss()}
      title={title}
      centered
      data-testid="workspace-loss"
    >
      <Stack gap="sm">
        <Text size="sm">
          <Trans>Его проекты и справочники больше не видны на этом устройстве.</Trans>
        </Text>
        {count > 0 ? (
          <>
            <Text size="sm" fw={600}>
              <Trans>
                Не отправленные изменения в нём отменены ({count}): сохранить их там уже нельзя.
              </Trans>
            </Text>
            <ScrollBox mah={240}>
              <Stack gap={4} component="ul" data-testid="discarded-changes">
                {loss.discarded.map((change, index) => (
                  <li key={index}>
                    <Text size="sm">
                      {t(changeKindName(change))}
                      {change.label ? ` «${nestQuotes(change.label)}»` : ''}
                    </Text>
                  </li>
                ))}
              </Stack>
            </ScrollBox>
          </>
        ) : null}
        <Group justify="flex-end">
          <Button onClick={() => void dismissWorkspaceLoss()}>
            <Trans>Понятно</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
