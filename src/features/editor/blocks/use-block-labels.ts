import '../editor-messages.ts'
import { useLingui } from '@lingui/react/macro'
import { useMemo } from 'react'
import type { BlockLabels } from './types.ts'

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
