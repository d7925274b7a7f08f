import '../editor-messages.ts'
import { useLingui } from '@lingui/react/macro'
import { IconHandClick } from '@tabler/icons-react'
import * as v from 'valibot'
import { optionalWebUrl } from '../../../domain/validation.ts'
import { fieldErrorText } from '../../../ui/field-error.ts'
import { SegmentedControl } from '../../../ui/segmented-control.ts'
import { useBackgroundLabel } from '../background-label.ts'
import { ChoiceField, Section, TextField } from '../inspector/fields.tsx'
import {
  ContentFields,
  StyleSection,
  URL_HINT,
  type BlockPanel,
  type BlockPanelProps,
} from '../inspector/panel-parts.tsx'

/**
 * Button: its label and name, what it does (a link, or a jump to a section or a slide), then its
 * look (`button.ts`).
 */
export const buttonPanel: BlockPanel<'button'> = { icon: IconHandClick, Panel: ButtonPanel }

function ButtonPanel({ ctx, backgrounds, kind = 'landing' }: BlockPanelProps<'button'>) {
  const { t } = useLingui()
  const backgroundLabel = useBackgroundLabel(kind)
  const block = ctx.block
  const targets = backgrounds.map((bg, i) => ({ value: String(bg.id), label: backgroundLabel(i) }))
  const checkLink = (value: string) => {
    const result = v.safeParse(optionalWebUrl, value)
    return result.success
      ? null
      : fieldErrorText(result.issues[0].message, result.issues[0].requirement)
  }
  return (
    <>
      <Section title={t`Содержимое`}>
        <ContentFields ctx={ctx} />
      </Section>
      <Section title={t`Действие`}>
        <SegmentedControl
          fullWidth
          aria-label={t`Действие кнопки`}
          value={block.btn_type}
          onChange={(next) =>
            ctx.commit(
              { btn_type: next === 'target' ? 'target' : 'link', btn_type_value: '' },
              'btn_type',
            )
          }
          data={[
            { value: 'link', label: t`Ссылка` },
            {
              value: 'target',
              label: kind === 'stories' ? t`Переход к слайду` : t`Переход к секции`,
            },
          ]}
        />
        {block.btn_type === 'link' ? (
          <TextField
            key="link"
            ctx={ctx}
            field="btn_type_value"
            label={t`Адрес ссылки`}
            placeholder={URL_HINT}
            type="url"
            validate={checkLink}
          />
        ) : (
          <ChoiceField
            key="target"
            ctx={ctx}
            field="btn_type_value"
            label={kind === 'stories' ? t`Слайд, к которому перейти` : t`Секция, к которой перейти`}
            options={[{ value: '', label: t`Не выбран` }, ...targets]}
          />
        )}
      </Section>
      <StyleSection ctx={ctx} />
    </>
  )
}
