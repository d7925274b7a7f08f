import '../editor-messages.ts'
import { useLingui } from '@lingui/react/macro'
import { IconCalendarEvent } from '@tabler/icons-react'
import { Text } from '../../../ui/layout.tsx'
import { ChoiceField } from '../inspector/fields.tsx'
import { FieldsPanel, type BlockPanel, type BlockPanelProps } from '../inspector/panel-parts.tsx'

/** Subscribe: the specialist (of the workspace's directory), the date and the action, then its width. */
export const subscribePanel: BlockPanel<'subscribe'> = {
  icon: IconCalendarEvent,
  Panel: SubscribePanel,
}

function SubscribePanel({ ctx, specialists }: BlockPanelProps<'subscribe'>) {
  const { t } = useLingui()
  const options = [
    { value: '', label: t`Не выбран` },
    ...specialists.map(({ id, name, enabled }) => ({
      value: String(id),
      label: enabled ? name : t`${name} (выключен)`,
    })),
  ]
  return (
    <FieldsPanel ctx={ctx} title={t`Запись к специалисту`}>
      <ChoiceField
        ctx={ctx}
        field="specialist_id"
        label={t`Специалист`}
        options={options}
        toValue={(raw) => (raw === '' ? null : Number(raw))}
      />
      {specialists.length === 0 ? (
        <Text size="xs" c="dimmed">{t`В этом рабочем пространстве пока нет специалистов.`}</Text>
      ) : null}
    </FieldsPanel>
  )
}
