import '../editor-messages.ts'
import { useLingui } from '@lingui/react/macro'
import { useMemo } from 'react'
import type { BlockLabels, DefaultTexts } from './types.ts'

/**
 * The words of the block types, translated: what blocks draw and what new blocks start with. A type
 * with words of its own adds them here and in `BlockLabels` or `DefaultTexts` (`types.ts`).
 */

/** The words blocks draw, translated; the canvas and the preview take them from here. */
export function useBlockLabels(): BlockLabels {
  const { t } = useLingui()
  return useMemo<BlockLabels>(
    () => ({
      image: t`Изображение`,
      imageFailed: t`Не удалось загрузить изображение`,
      video: t`Видео`,
      giftButton: t`Получить подарок`,
      noSpecialist: t`Специалист не выбран`,
      noDate: t`Дата не выбрана`,
      buy: t`Купить`,
      subscribe: t`Записаться`,
      watchVideo: t`Смотреть видео`,
    }),
    [t],
  )
}

/** The words new blocks start with, translated; the editor's store takes them. */
export function useDefaultTexts(): DefaultTexts {
  const { t } = useLingui()
  return useMemo<DefaultTexts>(
    () => ({
      text: t`Новый текст`,
      button: t`Кнопка`,
      gift: t`Подарок за запись`,
      priceButton: t`Купить`,
      subscribeAction: t`Записаться`,
    }),
    [t],
  )
}
