import { IconTypography } from '@tabler/icons-react'
import { FieldsPanel, type BlockPanel } from '../inspector/panel-parts.tsx'

/** Text: its words and name, then its look (`text.ts` `content` and `style`). */
export const textPanel: BlockPanel<'text'> = {
  icon: IconTypography,
  Panel: ({ ctx }) => <FieldsPanel ctx={ctx} />,
}
