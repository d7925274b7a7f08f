import '../editor-messages.ts'
import { useLingui } from '@lingui/react/macro'
import { ColorInput } from '../../../ui/color-input.ts'
import { Group, Stack, Text } from '../../../ui/layout.tsx'
import { useState, type ReactNode } from 'react'
import * as v from 'valibot'
import { BLOCK_SCHEMAS, type Align, type BlockOf, type BlockType } from '../../../domain/block.ts'
import { FieldCode } from '../../../domain/validation.ts'
import { Checkbox } from '../../../ui/checkbox.tsx'
import { fieldErrorText } from '../../../ui/field-error.ts'
import { SegmentedControl } from '../../../ui/segmented-control.ts'
import { NativeSelect, TextInput } from '../../../ui/text-input.tsx'
import { Textarea } from '../../../ui/textarea.tsx'
import type { BlockPatch, FieldOf } from '../blocks/types.ts'
import type { LocalBlock } from '../editor-data.ts'

/**
 * Inspector fields. Each keeps what the user types as a draft, checks it with the block's domain
 * schema and commits only a valid value to the editor (the last valid value stays saved, the field
 * shows the Russian message); the draft is dropped on blur once valid.
 *
 * Fields are typed against the block type's own fields: a field a type does not have, or a value
 * of the wrong kind, does not compile, and a commit is a `BlockPatch` of that type.
 */

export interface FieldContext<T extends BlockType = BlockType> {
  block: BlockOf<T>
  /** Commits a change; `tag` merges successive edits of one field into one undo step. */
  commit: (patch: BlockPatch<T>, tag: string) => void
}

type Field = string

/** `field` of the block's own fields set to `value`, with `more` (fields that follow it). */
function patchOf<T extends BlockType>(
  field: string,
  value: unknown,
  more?: BlockPatch<T>,
): BlockPatch<T> {
  // A computed key widens to a string index: each field's props say which of the type's own
  // fields it edits and what kind of value it holds (`FieldOf`), so the value fits.
  return { [field]: value, ...more } as BlockPatch<T>
}

/** The stored value of one field. */
function read(block: LocalBlock, field: Field): unknown {
  return (block as Record<string, unknown>)[field]
}

/** The schema's message for `field` if the block had `value` there (other fields are not judged). */
export function checkField(block: LocalBlock, field: Field, value: unknown): string | null {
  const schema = BLOCK_SCHEMAS[block.type]
  const result = v.safeParse(schema, { ...block, [field]: value })
  if (result.success) return null
  const issue = result.issues.find((i) => i.path?.[0]?.key === field)
  return issue ? fieldErrorText(issue.message, issue.requirement) : null
}

/** "12,5" → 12.5; empty or not a number → null. */
export function parseNumber(raw: string): number | null {
  const text = raw.trim().replace(/\s/g, '').replace(',', '.')
  if (text === '' || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(text)) return null
  const n = Number(text)
  return Number.isFinite(n) ? n : null
}

function useDraft() {
  const [draft, setDraft] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  return { draft, setDraft, error, setError }
}

const fieldId = (block: LocalBlock, field: string) => `inspector-${block.type}-${field}`

/** A number as a Russian reader writes it: a decimal comma, at most `digits` decimals. */
export function formatNumber(n: number, digits: number): string {
  const scale = 10 ** digits
  const rounded = Math.round(n * scale) / scale
  return String(Object.is(rounded, -0) ? 0 : rounded).replace('.', ',')
}

/**
 * How a stored number is shown in a field and read back: the stored basis
 * (docs/editor.md "Geometry") stays as it is, the person sees units they know (per cent of the
 * background, whole degrees).
 */
export interface NumberUnit {
  show: (stored: number) => number
  store: (shown: number) => number
  digits: number
}

/** Sizes and font sizes: shown to one decimal (the stored value keeps its own precision). */
const AS_STORED: NumberUnit = { show: (n) => n, store: (n) => n, digits: 1 }

export function NumberField<T extends BlockType>(props: {
  ctx: FieldContext<T>
  field: FieldOf<T, number | undefined>
  label: string
  description?: ReactNode
  suffix?: string
  unit?: NumberUnit
  /** More fields to change with this one (a picture's other side, to keep its proportions). */
  derive?: (value: number) => BlockPatch<T>
}) {
  const { ctx, field } = props
  const unit = props.unit ?? AS_STORED
  const stored = read(ctx.block, field)
  const value = typeof stored === 'number' ? formatNumber(unit.show(stored), unit.digits) : ''
  const { draft, setDraft, error, setError } = useDraft()
  const onChange = (raw: string) => {
    setDraft(raw)
    const shown = parseNumber(raw)
    const n = shown === null ? null : unit.store(shown)
    const message =
      n === null ? fieldErrorText(FieldCode.notNumber) : checkField(ctx.block, field, n)
    setError(message)
    if (message === null && n !== null) ctx.commit(patchOf<T>(field, n, props.derive?.(n)), field)
  }
  return (
    <TextInput
      id={fieldId(ctx.block, field)}
      label={props.label}
      description={props.description}
      inputMode="decimal"
      value={draft ?? value}
      onChange={(e) => onChange(e.currentTarget.value)}
      onBlur={() => {
        if (!error) setDraft(null)
      }}
      error={error}
      rightSection={
        props.suffix ? (
          <Text size="xs" c="dimmed">
            {props.suffix}
          </Text>
        ) : undefined
      }
    />
  )
}

export function TextField<T extends BlockType>(props: {
  ctx: FieldContext<T>
  field: FieldOf<T, string>
  label: string
  description?: ReactNode
  placeholder?: string
  multiline?: boolean
  type?: string
  /** The keyboard a touch device opens (a price: the number pad). */
  inputMode?: 'decimal' | 'url' | 'email' | 'tel'
  /** Extra check after the schema (returns a message or null). */
  validate?: (value: string) => string | null
  /** More fields to change with this one (e.g. the price number). */
  derive?: (value: string) => BlockPatch<T>
  /** Tidies a valid value when the field loses focus. */
  normalize?: (value: string) => string
}) {
  const { ctx, field } = props
  const stored = read(ctx.block, field)
  const commit = (text: string) => ctx.commit(patchOf<T>(field, text, props.derive?.(text)), field)
  const value = typeof stored === 'string' ? stored : ''
  const { draft, setDraft, error, setError } = useDraft()
  const onChange = (raw: string) => {
    setDraft(raw)
    const message = checkField(ctx.block, field, raw) ?? props.validate?.(raw) ?? null
    setError(message)
    if (message === null) commit(raw)
  }
  const onBlur = () => {
    if (error) return
    setDraft(null)
    if (props.normalize) {
      const tidy = props.normalize(value)
      if (tidy !== value) commit(tidy)
    }
  }
  const common = {
    id: fieldId(ctx.block, field),
    label: props.label,
    description: props.description,
    placeholder: props.placeholder,
    value: draft ?? value,
    onBlur,
    error,
  }
  return props.multiline ? (
    <Textarea
      {...common}
      minRows={2}
      maxRows={8}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  ) : (
    <TextInput
      {...common}
      type={props.type}
      inputMode={props.inputMode}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  )
}

export function ColorField<T extends BlockType>(props: {
  ctx: FieldContext<T>
  field: FieldOf<T, string>
  label: string
  allowTransparent?: boolean
}) {
  const { t } = useLingui()
  const { ctx, field } = props
  const stored = String(read(ctx.block, field) ?? '')
  const commit = (colour: string) => ctx.commit(patchOf<T>(field, colour), field)
  const transparent = stored === 'transparent'
  const { draft, setDraft, error, setError } = useDraft()
  const onChange = (raw: string) => {
    setDraft(raw)
    const message = checkField(ctx.block, field, raw)
    setError(message)
    if (message === null) commit(raw)
  }
  return (
    <Stack gap={4}>
      {!transparent ? (
        <ColorInput
          id={fieldId(ctx.block, field)}
          label={props.label}
          format="hex"
          value={draft ?? stored}
          onChange={onChange}
          onBlur={() => {
            if (!error) setDraft(null)
          }}
          error={error}
          aria-invalid={Boolean(error)}
          swatches={[
            '#212529',
            '#ffffff',
            '#228be6',
            '#2b8a3e',
            '#e64980',
            '#fab005',
            '#fa5252',
            '#7950f2',
          ]}
        />
      ) : (
        <Text size="sm" fw={500}>
          {props.label}
        </Text>
      )}
      {props.allowTransparent ? (
        <Checkbox
          label={t`Без заливки`}
          checked={transparent}
          onChange={(e) => {
            setDraft(null)
            setError(null)
            commit(e.currentTarget.checked ? 'transparent' : '#ffffff')
          }}
        />
      ) : null}
    </Stack>
  )
}

/**
 * A closed list of choices: a string field takes the option as it is; any other field says how
 * the option becomes its value (`toValue`).
 */
export function ChoiceField<T extends BlockType>(
  props: {
    ctx: FieldContext<T>
    label: string
    options: { value: string; label: string }[]
  } & (
    | { field: FieldOf<T, string>; toValue?: undefined }
    | { field: FieldOf<T, number | null>; toValue: (raw: string) => number | null }
  ),
) {
  const { ctx, field } = props
  const stored = read(ctx.block, field)
  const value = stored === null || stored === undefined ? '' : String(stored)
  const options = props.options.some((o) => o.value === value)
    ? props.options
    : [...props.options, { value, label: value }]
  return (
    <NativeSelect
      id={fieldId(ctx.block, field)}
      label={props.label}
      value={value}
      data={options}
      onChange={(e) => {
        const raw = e.currentTarget.value
        // The options are a closed list (ids of records, fonts): nothing to check.
        ctx.commit(patchOf<T>(field, props.toValue ? props.toValue(raw) : raw), field)
      }}
    />
  )
}

export function AlignField<T extends BlockType>({
  ctx,
  field,
}: {
  ctx: FieldContext<T>
  field: FieldOf<T, Align>
}) {
  const { t } = useLingui()
  const value = String(read(ctx.block, field) ?? 'center')
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={fieldId(ctx.block, 'align')}>
        {t`Выравнивание текста`}
      </Text>
      <SegmentedControl
        aria-labelledby={fieldId(ctx.block, 'align')}
        fullWidth
        value={value}
        onChange={(next) => ctx.commit(patchOf<T>(field, next), field)}
        data={[
          { value: 'left', label: t`Слева` },
          { value: 'center', label: t`По центру` },
          { value: 'right', label: t`Справа` },
        ]}
      />
    </Stack>
  )
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {title}
      </Text>
      {children}
    </Stack>
  )
}

export function Row({ children }: { children: ReactNode }) {
  return (
    <Group grow align="flex-start" gap="xs" wrap="nowrap">
      {children}
    </Group>
  )
}
