import '../editor-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import type { BlockOf, BlockType } from '../../../domain/block.ts'
import type { Specialist } from '../../../domain/directory.ts'
import { centreFromPercent, centrePercent, type Size } from '../../../domain/geometry.ts'
import type { Background } from '../../../domain/project.ts'
import { Stack, Text, Title } from '../../../ui/layout.tsx'
import { ParkedNotice, useParkedOf } from '../../records/index.ts'
import { BLOCK_DEFINITIONS, blockFieldOf } from '../blocks/index.ts'
import { BLOCK_PANELS } from '../blocks/panels.ts'
import type { AnyBlockPatch } from '../blocks/types.ts'
import type { LocalBlock } from '../editor-data.ts'
import type { EditorKind } from '../model/layout.ts'
import { NumberField, type NumberUnit, Row, Section, type FieldContext } from './fields.tsx'
import type { BlockPanel } from './panel-parts.tsx'

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

/** Rotation is shown and typed in whole degrees (the stored angle keeps its decimals). */
const WHOLE_DEGREES: NumberUnit = { show: (n) => n, store: (n) => n, digits: 0 }

/**
 * X and Y as per cent of the background from its top left corner, to one decimal
 * (`centrePercent`, docs/editor.md).
 */
export function positionUnits(bg: Size | undefined): { x: NumberUnit; y: NumberUnit } {
  return {
    x: {
      show: (x) => centrePercent({ x, y: 0 }, bg).x,
      store: (p) => centreFromPercent({ x: p, y: 0 }, bg).x,
      digits: 1,
    },
    y: {
      show: (y) => centrePercent({ x: 0, y }, bg).y,
      store: (p) => centreFromPercent({ x: 0, y: p }, bg).y,
      digits: 1,
    },
  }
}

/** A block type's name (`blocks/<type>.ts` `label`). */
export function useBlockTypeLabel(): (type: BlockType) => string {
  const { i18n } = useLingui()
  return (type) => i18n._(BLOCK_DEFINITIONS[type].label)
}

/**
 * Every field of the selected block (docs/API.md "Blocks"): its type's panel (`blocks/panels.ts`),
 * then its position, which every block has.
 */
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
      <BlockParked id={props.block.id} />
      <TypePanel {...props} />
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

/**
 * The panel of the block's own type (`blocks/<type>-panel.tsx`), with the block and its commit
 * typed for that type.
 */
function TypePanel<T extends BlockType>(props: BlockInspectorProps & { block: BlockOf<T> }) {
  const { block, onChange, ...rest } = props
  const { Panel } = BLOCK_PANELS[block.type as T] as BlockPanel<T>
  return <Panel {...rest} ctx={{ block, commit: onChange }} />
}

/**
 * The block's conflicts and refused saves, with the choices, as the record forms show theirs
 * (docs/SYNC.md "Conflicts"): in the inspector's words and units.
 */
function BlockParked({ id }: { id: number | undefined }) {
  const { t } = useLingui()
  const parked = useParkedOf('blocks', id ?? 0)
  if (id === undefined || parked.length === 0) return null
  return (
    <ParkedNotice
      entries={parked}
      blockField={blockFieldOf}
      conflictTitle={t`Блок изменили на сервере, пока вы его правили`}
    />
  )
}
