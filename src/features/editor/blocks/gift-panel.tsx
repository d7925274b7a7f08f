import { IconGift } from '@tabler/icons-react'
import { FieldsPanel, type BlockPanel } from '../inspector/panel-parts.tsx'

/** Gift: its text, name, link and web hook, then its width and colour (`gift.ts`). */
export const giftPanel: BlockPanel<'gift'> = {
  icon: IconGift,
  Panel: ({ ctx }) => <FieldsPanel ctx={ctx} />,
}
