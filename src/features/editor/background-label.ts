import { useLingui } from '@lingui/react/macro'
import './editor-messages.ts'
import type { EditorKind } from './model/layout.ts'

/**
 * What a background is called in each editor, everywhere it is named (the slide strip, the
 * inspector, the preview): a «Слайд» of a story, a «Секция» of a landing page.
 */
export function useBackgroundLabel(kind: EditorKind): (index: number) => string {
  const { t } = useLingui()
  return (index) => {
    const number = index + 1
    return kind === 'stories' ? t`Слайд ${number}` : t`Секция ${number}`
  }
}
