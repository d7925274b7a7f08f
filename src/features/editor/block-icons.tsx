import {
  IconCalendarEvent,
  IconCurrencyRubel,
  IconGift,
  IconHandClick,
  IconPhoto,
  IconTypography,
  IconVideo,
} from '@tabler/icons-react'
import type { BlockType } from '../../domain/block.ts'

const ICONS = {
  text: IconTypography,
  button: IconHandClick,
  image: IconPhoto,
  video: IconVideo,
  gift: IconGift,
  price: IconCurrencyRubel,
  subscribe: IconCalendarEvent,
} as const

export function BlockIcon({ type, size = 18 }: { type: BlockType; size?: number }) {
  const Icon = ICONS[type]
  return <Icon size={size} stroke={1.7} aria-hidden style={{ flexShrink: 0 }} />
}
