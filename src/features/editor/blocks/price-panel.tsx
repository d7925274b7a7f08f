import '../editor-messages.ts'
import { useLingui } from '@lingui/react/macro'
import { IconCurrencyRubel } from '@tabler/icons-react'
import { formatPrice } from '../../../domain/format.ts'
import { parsePrice } from '../../../domain/price.ts'
import { FieldCode } from '../../../domain/validation.ts'
import { fieldErrorText } from '../../../ui/field-error.ts'
import { TextField } from '../inspector/fields.tsx'
import { FieldsPanel, type BlockPanel, type BlockPanelProps } from '../inspector/panel-parts.tsx'

/** Price: the price in roubles (its number kept beside it), the button's words, then its look. */
export const pricePanel: BlockPanel<'price'> = { icon: IconCurrencyRubel, Panel: PricePanel }

function PricePanel({ ctx }: BlockPanelProps<'price'>) {
  const { t } = useLingui()
  const block = ctx.block
  const checkPrice = (value: string) =>
    value.trim() !== '' && parsePrice(value) === null
      ? fieldErrorText(FieldCode.invalidPrice)
      : null
  const amount = block.text_price !== null ? formatPrice(block.text_price) : null
  return (
    <FieldsPanel ctx={ctx}>
      <TextField
        ctx={ctx}
        field="text"
        label={t`Цена, ₽`}
        inputMode="decimal"
        placeholder={formatPrice(1500)}
        description={
          amount !== null ? t`Сумма: ${amount}` : t`Введите сумму в рублях, например 1 500 ₽`
        }
        validate={checkPrice}
        derive={(value) => ({ text_price: parsePrice(value) })}
        normalize={(value) => {
          const amount = parsePrice(value)
          return amount !== null ? formatPrice(amount) : value
        }}
      />
    </FieldsPanel>
  )
}
