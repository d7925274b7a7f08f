import '../editor-messages.ts'
import { useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { roundStored } from '../../../domain/geometry.ts'
import { SwitchField } from '../../../ui/switch-field.tsx'
import { useTouchFirst } from '../../../ui/use-touch-first.ts'
import { NumberField, Row, Section, type FieldContext } from '../inspector/fields.tsx'
import { ContentFields } from '../inspector/panel-parts.tsx'
import type { BlockPatch } from './types.ts'

/**
 * What the image's and the video's panels share: a section for the file (`children`, then the
 * plain content fields) and the «Размер» section, where the proportions switch goes with the size
 * and the scale.
 */
export function MediaPanel({
  ctx,
  title,
  keepAspect,
  onKeepAspect,
  children,
}: {
  /** Width, height and scale are fields of both pictures and videos. */
  ctx: FieldContext<'image' | 'video'>
  title: string
  keepAspect?: boolean
  onKeepAspect?: (keep: boolean) => void
  children: ReactNode
}) {
  const { t } = useLingui()
  return (
    <>
      <Section title={title}>
        {children}
        <ContentFields ctx={ctx} />
      </Section>
      <Section title={t`Размер`}>
        <MediaSize ctx={ctx} keepAspect={keepAspect} onKeepAspect={onKeepAspect} />
      </Section>
    </>
  )
}

/**
 * A picture's or a video's size. While its proportions are kept (the default), changing one side
 * scales the other with it: both are per cent of the background's own side, so scaling both by the
 * same factor keeps the shape the canvas and the preview draw.
 */
function MediaSize({
  ctx,
  keepAspect = true,
  onKeepAspect,
}: {
  /** Width, height and scale are fields of both pictures and videos. */
  ctx: FieldContext<'image' | 'video'>
  keepAspect?: boolean
  onKeepAspect?: (keep: boolean) => void
}) {
  const { t } = useLingui()
  const touchFirst = useTouchFirst()
  const block = ctx.block
  const other =
    (from: 'width' | 'height', to: 'width' | 'height') =>
    (value: number): BlockPatch<'image' | 'video'> => {
      if (!keepAspect || block[from] <= 0) return {}
      const scaled = roundStored((block[to] * value) / block[from])
      return to === 'width' ? { width: scaled } : { height: scaled }
    }
  return (
    <>
      <Row>
        <NumberField
          ctx={ctx}
          field="width"
          label={t`Ширина`}
          suffix="%"
          derive={other('width', 'height')}
        />
        <NumberField
          ctx={ctx}
          field="height"
          label={t`Высота`}
          suffix="%"
          derive={other('height', 'width')}
        />
      </Row>
      {onKeepAspect ? (
        <SwitchField
          label={t`Сохранять пропорции`}
          description={
            touchFirst
              ? t`Ширина и высота меняются вместе, на холсте тоже`
              : t`Ширина и высота меняются вместе, на холсте тоже (Shift — наоборот)`
          }
          checked={keepAspect}
          onChange={(e) => onKeepAspect(e.currentTarget.checked)}
        />
      ) : null}
      <Row>
        <NumberField ctx={ctx} field="scaleX" label={t`Масштаб по X`} />
        <NumberField ctx={ctx} field="scaleY" label={t`Масштаб по Y`} />
      </Row>
    </>
  )
}
