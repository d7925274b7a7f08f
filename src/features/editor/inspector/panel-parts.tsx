import '../editor-messages.ts'
import { useLingui } from '@lingui/react/macro'
import type { TablerIcon } from '@tabler/icons-react'
import { IconUpload } from '@tabler/icons-react'
import { useState, type ReactNode } from 'react'
import { localFileId } from '../../../data/ids.ts'
import type { BlockType } from '../../../domain/block.ts'
import { Button } from '../../../ui/button.tsx'
import { FileButton } from '../../../ui/file-button.tsx'
import { Stack, Text } from '../../../ui/layout.tsx'
import { Progress } from '../../../ui/progress.tsx'
import { BLOCK_DEFINITIONS } from '../blocks/index.ts'
import type { ContentField, StyleField } from '../blocks/types.ts'
import { FONT_FAMILIES } from '../model/fonts.ts'
import { checkUpload, uploadErrorText } from '../upload.ts'
import type { BlockInspectorProps } from './block-inspector.tsx'
import {
  AlignField,
  ChoiceField,
  ColorField,
  NumberField,
  Row,
  Section,
  TextField,
} from './fields.tsx'
import type { FieldContext } from './fields.tsx'

/**
 * What the block types' inspector panels (`blocks/<type>-panel.tsx`) are made of: the props the
 * inspector hands a panel, and the pieces panels share (the plain content fields and the
 * «Оформление» section from the type's definition, uploads).
 */

/** An address hint, not text: the same in every language. */
export const URL_HINT = ['https', '//'].join(':')

export const noProgress = () => null

/** What a panel gets: the inspector's props, and the block with its commit typed for its type. */
export type BlockPanelProps<T extends BlockType> = Omit<
  BlockInspectorProps,
  'block' | 'onChange'
> & {
  ctx: FieldContext<T>
}

/**
 * A block type's part of the editor's UI (`blocks/<type>-panel.tsx`, listed in
 * `blocks/panels.ts`): its icon and its inspector panel (the fields above «Положение», which
 * every block has).
 */
export interface BlockPanel<T extends BlockType> {
  icon: TablerIcon
  Panel: (props: BlockPanelProps<T>) => ReactNode
}

/**
 * A panel of a «Содержимое» section (`children` first, then the type's plain content fields) and
 * the «Оформление» section: text, cards.
 */
export function FieldsPanel<T extends BlockType>({
  ctx,
  title,
  children,
}: {
  ctx: FieldContext<T>
  /** The first section's title; «Содержимое» by default. */
  title?: string
  children?: ReactNode
}) {
  const { t } = useLingui()
  return (
    <>
      <Section title={title ?? t`Содержимое`}>
        {children}
        <ContentFields ctx={ctx} />
      </Section>
      <StyleSection ctx={ctx} />
    </>
  )
}

/**
 * The web fonts by their family names. A block saved with a system font (Arial, …) keeps it and
 * shows it as the current choice (ChoiceField adds a value that is not in the list).
 */
function useFontOptions() {
  return FONT_FAMILIES.map((font) => ({ value: font, label: font }))
}

/** Upload with the checks and a busy state; reports failures in Russian under the button. */
export function UploadButton(props: {
  accept: readonly string[]
  label: string
  kind: 'image' | 'video'
  onFile: (file: File) => Promise<void>
}) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const pick = (file: File | null) => {
    if (!file) return
    const problem = checkUpload(file, props.accept, props.kind)
    if (problem) {
      setError(problem)
      return
    }
    setError(null)
    setBusy(true)
    props
      .onFile(file)
      .catch((e: unknown) => setError(uploadErrorText(e)))
      .finally(() => setBusy(false))
  }
  return (
    <Stack gap={4}>
      <FileButton onChange={pick} accept={props.accept.join(',')}>
        {(buttonProps) => (
          <Button
            {...buttonProps}
            variant="light"
            leftSection={<IconUpload size={18} />}
            loading={busy}
          >
            {props.label}
          </Button>
        )}
      </FileButton>
      {error ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
      {busy ? <Text size="xs" c="dimmed">{t`Загрузка…`}</Text> : null}
    </Stack>
  )
}

/**
 * A file kept in IndexedDB until the server has it (offline, or still queued): its upload progress
 * while it is being sent, else that it waits. Nothing once the block holds the server's URL.
 */
export function PendingUpload(props: {
  url: string
  useUploadProgress: (url: string) => number | null
}) {
  const { t } = useLingui()
  const { useUploadProgress } = props
  const progress = useUploadProgress(props.url)
  if (localFileId(props.url) === null) return null
  if (progress === null) {
    return (
      <Text size="xs" c="dimmed">
        {t`Файл сохранён на устройстве и ждёт отправки на сервер.`}
      </Text>
    )
  }
  const percent = Math.round(progress * 100)
  return (
    <Stack gap={2}>
      <Progress value={percent} aria-label={t`Загрузка файла на сервер`} />
      <Text size="xs" c="dimmed">{t`Отправляется на сервер: ${percent}%`}</Text>
    </Stack>
  )
}

/**
 * A block type's plain content fields, from its definition's typed fields (`blocks/<type>.ts`
 * `content`): texts, links and dates.
 */
export function ContentFields<T extends BlockType>({ ctx }: { ctx: FieldContext<T> }) {
  const { i18n } = useLingui()
  // The definition of the block's own type: its fields are typed against `T`.
  const fields = BLOCK_DEFINITIONS[ctx.block.type].content as readonly ContentField<T>[]
  return fields.map((f) => (
    <TextField
      key={f.field}
      ctx={ctx}
      field={f.field}
      label={i18n._(f.label)}
      description={f.description ? i18n._(f.description) : undefined}
      multiline={f.multiline}
      placeholder={f.input === 'url' ? URL_HINT : undefined}
      type={f.input}
    />
  ))
}

/**
 * The «Оформление» section of a block type, from its definition's typed fields
 * (`blocks/<type>.ts` `style`); two numbers in a row share a line.
 */
export function StyleSection<T extends BlockType>({ ctx }: { ctx: FieldContext<T> }) {
  const { t, i18n } = useLingui()
  const fonts = useFontOptions()
  // The definition of the block's own type: its fields are typed against `T`.
  const fields = BLOCK_DEFINITIONS[ctx.block.type].style as readonly StyleField<T>[]
  if (fields.length === 0) return null
  const number = (f: Extract<StyleField<T>, { kind: 'number' }>) => (
    <NumberField
      key={f.field}
      ctx={ctx}
      field={f.field}
      label={i18n._(f.label)}
      suffix={f.suffix}
    />
  )
  const items: ReactNode[] = []
  for (let i = 0; i < fields.length; i += 1) {
    const f = fields[i]!
    const next = fields[i + 1]
    if (f.kind === 'number' && next?.kind === 'number') {
      items.push(
        <Row key={f.field}>
          {number(f)}
          {number(next)}
        </Row>,
      )
      i += 1
    } else if (f.kind === 'number') items.push(number(f))
    else if (f.kind === 'font')
      items.push(
        <ChoiceField
          key={f.field}
          ctx={ctx}
          field={f.field}
          label={i18n._(f.label)}
          options={fonts}
        />,
      )
    else if (f.kind === 'align') items.push(<AlignField key={f.field} ctx={ctx} field={f.field} />)
    else
      items.push(
        <ColorField
          key={f.field}
          ctx={ctx}
          field={f.field}
          label={i18n._(f.label)}
          allowTransparent={f.allowTransparent}
        />,
      )
  }
  return <Section title={t`Оформление`}>{items}</Section>
}
