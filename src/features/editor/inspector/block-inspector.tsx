import '../editor-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { SegmentedControl } from '@mantine/core'
import { Group, Stack, Text, Title } from '../../../ui/layout.tsx'
import { Progress } from '../../../ui/progress.tsx'
import { IconUpload, IconX } from '@tabler/icons-react'
import { useState, type ReactNode } from 'react'
import * as v from 'valibot'
import { localFileId } from '../../../data/ids.ts'
import type { BlockType } from '../../../domain/block.ts'
import type { Specialist } from '../../../domain/directory.ts'
import { formatPrice } from '../../../domain/format.ts'
import { Button } from '../../../ui/button.tsx'
import { FileButton } from '../../../ui/file-button.tsx'
import { halfHeightUnits, roundStored, type Size } from '../../../domain/geometry.ts'
import { parsePrice } from '../../../domain/price.ts'
import type { Background } from '../../../domain/project.ts'
import { FieldCode, optionalWebUrl } from '../../../domain/validation.ts'
import { fieldErrorText } from '../../../ui/field-error.ts'
import type { LocalBlock } from '../editor-data.ts'
import { BLOCK_DEFINITIONS } from '../blocks/index.ts'
import type { AnyBlockPatch, BlockPatch, ContentField, StyleField } from '../blocks/types.ts'
import { FONT_FAMILIES } from '../model/fonts.ts'
import { checkUpload, IMAGE_TYPES, readImageSize, uploadErrorText, VIDEO_TYPES } from '../upload.ts'
import {
  AlignField,
  ChoiceField,
  ColorField,
  NumberField,
  type NumberUnit,
  Row,
  Section,
  TextField,
  type FieldContext,
} from './fields.tsx'
import { useBackgroundLabel } from '../background-label.ts'
import type { EditorKind } from '../model/layout.ts'
import { SwitchField } from '../../../ui/switch-field.tsx'

/** An address hint, not text: the same in every language. */
const URL_HINT = ['https', '//'].join(':')

export interface BlockInspectorProps {
  block: LocalBlock
  /** The size of the block's background (image uploads keep their aspect in it). */
  background: Size | undefined
  backgrounds: Background[]
  /** Pictures and videos keep their proportions when resized, and the switch that says so. */
  keepAspect?: boolean
  onKeepAspect?: (keep: boolean) => void
  /** The editor: its backgrounds are slides («Сторис») or sections («Лендинг»). */
  kind?: EditorKind
  specialists: Specialist[]
  /** Commits a patch of the block's own fields (typed per type: `BlockPatch`). */
  onChange: (patch: AnyBlockPatch, tag: string) => void
  uploadFile: (file: Blob) => Promise<string>
  resolveFileUrl: (url: string) => string
  /** A hook: upload progress of a file waiting in IndexedDB (EditorData.useUploadProgress). */
  useUploadProgress?: (url: string) => number | null
}

const noProgress = () => null

/** Rotation is shown and typed in whole degrees (the stored angle keeps its decimals). */
const WHOLE_DEGREES: NumberUnit = { show: (n) => n, store: (n) => n, digits: 0 }

/**
 * X and Y as per cent of the background from its top left corner: the stored centre offsets run
 * from -100 to 100 across the width and ± half the height in the same units (docs/editor.md).
 */
export function positionUnits(bg: Size | undefined): { x: NumberUnit; y: NumberUnit } {
  const half = bg ? halfHeightUnits(bg) : 100
  return {
    x: { show: (x) => (x + 100) / 2, store: (p) => p * 2 - 100, digits: 2 },
    y: {
      show: (y) => ((y + half) / (2 * half)) * 100,
      store: (p) => (p / 100) * 2 * half - half,
      digits: 2,
    },
  }
}

export function useBlockTypeLabel(): (type: BlockType) => string {
  const { t } = useLingui()
  return (type) => {
    switch (type) {
      case 'text':
        return t`Текст`
      case 'button':
        return t`Кнопка`
      case 'image':
        return t`Изображение`
      case 'video':
        return t`Видео`
      case 'gift':
        return t`Подарок`
      case 'price':
        return t`Цена`
      case 'subscribe':
        return t`Запись`
    }
  }
}

/** Every field of spec §3 for the selected block's type. */
export function BlockInspector(props: BlockInspectorProps) {
  const { t } = useLingui()
  const typeLabel = useBlockTypeLabel()
  const ctx: FieldContext = { block: props.block, commit: props.onChange }
  const units = positionUnits(props.background)
  return (
    <Stack gap="lg">
      <Title order={3} fz="lg">
        {typeLabel(props.block.type)}
      </Title>
      <TypeFields {...props} />
      <Section title={t`Положение`}>
        <Row>
          <NumberField ctx={ctx} field="x" label={t`X`} suffix="%" unit={units.x} />
          <NumberField ctx={ctx} field="y" label={t`Y`} suffix="%" unit={units.y} />
        </Row>
        <NumberField
          ctx={ctx}
          field="rotation"
          label={t`Поворот`}
          suffix="°"
          unit={WHOLE_DEGREES}
        />
        <Text size="xs" c="dimmed">
          <Trans>
            X и Y — где центр блока: в процентах ширины и высоты фона от его левого верхнего угла.
          </Trans>
        </Text>
      </Section>
    </Stack>
  )
}

/** The fields of the block's own type, each section with a context typed for that type. */
function TypeFields(props: BlockInspectorProps) {
  const { block, onChange: commit } = props
  switch (block.type) {
    case 'text':
      return <TextFields ctx={{ block, commit }} />
    case 'button':
      return <ButtonFields {...props} ctx={{ block, commit }} />
    case 'image':
      return <ImageFields {...props} ctx={{ block, commit }} />
    case 'video':
      return <VideoFields {...props} ctx={{ block, commit }} />
    case 'gift':
      return <GiftFields ctx={{ block, commit }} />
    case 'price':
      return <PriceFields ctx={{ block, commit }} />
    case 'subscribe':
      return <SubscribeFields {...props} ctx={{ block, commit }} />
  }
}

/**
 * The web fonts by their family names. A block saved with a system font (Arial, …) keeps it and
 * shows it as the current choice (ChoiceField adds a value that is not in the list).
 */
function useFontOptions() {
  return FONT_FAMILIES.map((font) => ({ value: font, label: font }))
}

function TextFields({ ctx }: { ctx: FieldContext<'text'> }) {
  const { t } = useLingui()
  return (
    <>
      <Section title={t`Содержимое`}>
        <ContentFields ctx={ctx} />
      </Section>
      <StyleSection ctx={ctx} />
    </>
  )
}

function ButtonFields({
  ctx,
  backgrounds,
  kind = 'landing',
}: {
  ctx: FieldContext<'button'>
  backgrounds: Background[]
  kind?: EditorKind
}) {
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

/** Upload with the checks and a busy state; reports failures in Russian under the button. */
function UploadButton(props: {
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
function PendingUpload(props: { url: string; useUploadProgress: (url: string) => number | null }) {
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
          description={t`Ширина и высота меняются вместе, на холсте тоже (Shift — наоборот)`}
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

function ImageFields(props: BlockInspectorProps & { ctx: FieldContext<'image'> }) {
  const { t } = useLingui()
  const { ctx } = props
  const block = ctx.block
  const onFile = async (file: File) => {
    const size = await readImageSize(file)
    const url = await props.uploadFile(file)
    const patch: BlockPatch<'image'> = { image_url: url }
    if (props.background && size.width > 0) {
      // Keep the picture's own proportions at the block's width.
      const heightUnits = (block.width * 2 * size.height) / size.width
      patch.height = roundStored((heightUnits / (2 * halfHeightUnits(props.background))) * 100)
      patch.scaleX = 1
      patch.scaleY = 1
    }
    ctx.commit(patch, 'image_url')
  }
  return (
    <>
      <Section title={t`Изображение`}>
        {props.resolveFileUrl(block.image_url) ? (
          <img
            src={props.resolveFileUrl(block.image_url)}
            alt={t`Загруженное изображение`}
            style={{
              display: 'block',
              width: '100%',
              maxHeight: 140,
              objectFit: 'contain',
              borderRadius: 'var(--mantine-radius-sm)',
            }}
          />
        ) : (
          <Text size="sm" c="dimmed">{t`Изображение ещё не загружено`}</Text>
        )}
        <PendingUpload
          url={block.image_url}
          useUploadProgress={props.useUploadProgress ?? noProgress}
        />
        <UploadButton
          accept={IMAGE_TYPES}
          kind="image"
          label={t`Загрузить изображение`}
          onFile={onFile}
        />
        <ContentFields ctx={ctx} />
      </Section>
      <Section title={t`Размер`}>
        <MediaSize
          ctx={{ block: ctx.block, commit: ctx.commit }}
          keepAspect={props.keepAspect}
          onKeepAspect={props.onKeepAspect}
        />
      </Section>
    </>
  )
}

function VideoFields(props: BlockInspectorProps & { ctx: FieldContext<'video'> }) {
  const { t } = useLingui()
  const { ctx } = props
  const block = ctx.block
  const [source, setSource] = useState<'url' | 'file'>(block.video_src ? 'file' : 'url')
  const onFile = async (file: File) => {
    const url = await props.uploadFile(file)
    ctx.commit({ video_src: url }, 'video_src')
  }
  return (
    <>
      <Section title={t`Видео`}>
        <SegmentedControl
          fullWidth
          aria-label={t`Источник видео`}
          value={source}
          onChange={(next) => setSource(next as 'url' | 'file')}
          data={[
            { value: 'url', label: t`По ссылке` },
            { value: 'file', label: t`Файл` },
          ]}
        />
        {source === 'url' ? (
          <TextField
            ctx={ctx}
            field="video_url"
            label={t`Ссылка на видео`}
            placeholder={URL_HINT}
            type="url"
          />
        ) : (
          <>
            {block.video_src ? (
              <>
                {/* A file on the device resolves to a blob: URL a moment after it is stored. */}
                {props.resolveFileUrl(block.video_src) ? (
                  <video
                    src={props.resolveFileUrl(block.video_src)}
                    controls
                    muted
                    playsInline
                    preload="metadata"
                    aria-label={t`Загруженное видео`}
                    style={{ width: '100%', maxHeight: 160, background: '#000', borderRadius: 4 }}
                  />
                ) : null}
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm" truncate="end" flex={1}>
                    {localFileId(block.video_src) === null
                      ? block.video_src
                      : t`Видео с устройства`}
                  </Text>
                  <Button
                    variant="subtle"
                    color="red"
                    size="sm"
                    leftSection={<IconX size={16} />}
                    onClick={() => ctx.commit({ video_src: '' }, 'video_src')}
                  >
                    <Trans>Убрать</Trans>
                  </Button>
                </Group>
                <PendingUpload
                  url={block.video_src}
                  useUploadProgress={props.useUploadProgress ?? noProgress}
                />
              </>
            ) : (
              <Text size="sm" c="dimmed">{t`Файл не выбран`}</Text>
            )}
            <UploadButton
              accept={VIDEO_TYPES}
              kind="video"
              label={t`Загрузить видео`}
              onFile={onFile}
            />
          </>
        )}
        <ContentFields ctx={ctx} />
      </Section>
      <Section title={t`Размер`}>
        <MediaSize
          ctx={{ block: ctx.block, commit: ctx.commit }}
          keepAspect={props.keepAspect}
          onKeepAspect={props.onKeepAspect}
        />
      </Section>
    </>
  )
}

function GiftFields({ ctx }: { ctx: FieldContext<'gift'> }) {
  const { t } = useLingui()
  return (
    <>
      <Section title={t`Содержимое`}>
        <ContentFields ctx={ctx} />
      </Section>
      <StyleSection ctx={ctx} />
    </>
  )
}

function PriceFields({ ctx }: { ctx: FieldContext<'price'> }) {
  const { t } = useLingui()
  const block = ctx.block
  const checkPrice = (value: string) =>
    value.trim() !== '' && parsePrice(value) === null
      ? fieldErrorText(FieldCode.invalidPrice)
      : null
  const amount = block.text_price !== null ? formatPrice(block.text_price) : null
  return (
    <>
      <Section title={t`Содержимое`}>
        <TextField
          ctx={ctx}
          field="text"
          label={t`Цена, ₽`}
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
        <ContentFields ctx={ctx} />
      </Section>
      <StyleSection ctx={ctx} />
    </>
  )
}

function SubscribeFields({
  ctx,
  specialists,
}: {
  ctx: FieldContext<'subscribe'>
  specialists: Specialist[]
}) {
  const { t } = useLingui()
  const options = [
    { value: '', label: t`Не выбран` },
    ...specialists.map(({ id, name, enabled }) => ({
      value: String(id),
      label: enabled ? name : t`${name} (выключен)`,
    })),
  ]
  return (
    <>
      <Section title={t`Запись к специалисту`}>
        <ChoiceField
          ctx={ctx}
          field="specialist_id"
          label={t`Специалист`}
          options={options}
          toValue={(raw) => (raw === '' ? null : Number(raw))}
        />
        {specialists.length === 0 ? (
          <Text size="xs" c="dimmed">{t`В этом рабочем пространстве пока нет специалистов.`}</Text>
        ) : null}
        <ContentFields ctx={ctx} />
      </Section>
      <StyleSection ctx={ctx} />
    </>
  )
}

/**
 * A block type's plain content fields, from its definition's typed fields (`blocks/<type>.ts`
 * `content`): texts, links and dates.
 */
function ContentFields<T extends BlockType>({ ctx }: { ctx: FieldContext<T> }) {
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
function StyleSection<T extends BlockType>({ ctx }: { ctx: FieldContext<T> }) {
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
