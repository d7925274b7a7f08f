import '../editor-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { ColorInput } from '../../../ui/color-input.ts'
import { Box, Group, Stack, Text } from '../../../ui/layout.tsx'
import { useRef, useState, type PointerEvent } from 'react'
import type { Size } from '../../../domain/geometry.ts'
import { Alert } from '../../../ui/alert.tsx'
import { Button } from '../../../ui/button.tsx'
import { Modal } from '../../../ui/modal.ts'
import { SegmentedControl } from '../../../ui/segmented-control.ts'
import { Slider } from '../../../ui/slider.ts'
import { cropAxis, cropWindow, fitPlacement, movedOffset } from './geometry.ts'
import type { StoryFitChoice } from './render.ts'

/** The preview's 9:16 frame, CSS px. */
const FRAME = { width: 180, height: 320 }
const HEX = /^#[0-9a-f]{6}$/i

export interface StoryFitDialogProps {
  /** The picture to show (an object URL of the picked file). */
  imageUrl: string
  size: Size
  /** The margin colour a fit starts with (from the picture's edge, or white). */
  defaultColour: string
  busy: boolean
  error: string | null
  onChoose: (choice: StoryFitChoice) => void
  onCancel: () => void
}

/**
 * Asked before a picture that is not 9:16 becomes a story slide (docs/editor.md): crop it to a 9:16
 * window the person moves along the long side (drag or slider), or fit it whole on a 9:16 canvas
 * with a margin colour, or cancel.
 */
export function StoryFitDialog(props: StoryFitDialogProps) {
  const { t } = useLingui()
  const { size } = props
  const [mode, setMode] = useState<'crop' | 'fit'>('crop')
  const [offset, setOffset] = useState(0.5)
  const [colour, setColour] = useState(props.defaultColour)
  const drag = useRef<{ start: number; from: number; pointer: number } | null>(null)
  const axis = cropAxis(size)
  const window = cropWindow(size, offset)
  // Picture px → preview px: the crop window fills the frame.
  const k = axis === 'x' ? FRAME.height / size.height : FRAME.width / size.width
  const fit = fitPlacement(size)
  const fk = FRAME.width / fit.canvas.width
  const colourOk = HEX.test(colour)
  const { width, height } = size

  const along = (e: PointerEvent) => (axis === 'x' ? e.clientX : e.clientY)
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture?.(e.pointerId)
    drag.current = { start: offset, from: along(e), pointer: e.pointerId }
  }
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current
    if (!d || d.pointer !== e.pointerId) return
    // The picture follows the finger under a still frame: the window moves the other way.
    setOffset(movedOffset(size, d.start, -(along(e) - d.from) / k))
  }
  const endDrag = () => {
    drag.current = null
  }

  const choose = () => {
    if (mode === 'crop') props.onChoose({ mode, offset })
    else if (colourOk) props.onChoose({ mode, colour })
  }

  return (
    <Modal
      opened
      onClose={props.onCancel}
      title={t`Слайд должен быть 9:16`}
      centered
      radius="md"
      closeOnClickOutside={!props.busy}
      closeOnEscape={!props.busy}
    >
      <Stack gap="sm">
        <Text size="sm">
          <Trans>
            У этой картинки другие пропорции ({width} × {height}). Обрежьте её до 9:16 или впишите
            целиком с полями.
          </Trans>
        </Text>
        <SegmentedControl
          fullWidth
          value={mode}
          onChange={(v) => setMode(v === 'fit' ? 'fit' : 'crop')}
          data={[
            { value: 'crop', label: t`Обрезать до 9:16` },
            { value: 'fit', label: t`Вписать с полями` },
          ]}
        />
        <Group justify="center">
          {mode === 'crop' ? (
            <Box
              data-testid="story-fit-crop"
              aria-label={t`Кадр слайда: перетащите картинку`}
              role="img"
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={endDrag}
              onPointerCancel={endDrag}
              style={{
                position: 'relative',
                overflow: 'hidden',
                width: window.width * k,
                height: window.height * k,
                borderRadius: 8,
                cursor: axis === 'x' ? 'ew-resize' : 'ns-resize',
                touchAction: 'none',
                userSelect: 'none',
                outline: '1px solid var(--mantine-color-gray-4)',
              }}
            >
              <img
                src={props.imageUrl}
                alt=""
                draggable={false}
                style={{
                  position: 'absolute',
                  left: -window.x * k,
                  top: -window.y * k,
                  width: size.width * k,
                  height: size.height * k,
                  maxWidth: 'none',
                  pointerEvents: 'none',
                }}
              />
            </Box>
          ) : (
            <Box
              data-testid="story-fit-fit"
              role="img"
              aria-label={t`Слайд с полями`}
              style={{
                position: 'relative',
                overflow: 'hidden',
                width: FRAME.width,
                height: fit.canvas.height * fk,
                borderRadius: 8,
                background: colourOk ? colour : '#ffffff',
                outline: '1px solid var(--mantine-color-gray-4)',
              }}
            >
              <img
                src={props.imageUrl}
                alt=""
                draggable={false}
                style={{
                  position: 'absolute',
                  left: fit.picture.x * fk,
                  top: fit.picture.y * fk,
                  width: fit.picture.width * fk,
                  height: fit.picture.height * fk,
                  maxWidth: 'none',
                }}
              />
            </Box>
          )}
        </Group>
        {mode === 'crop' ? (
          <Stack gap={4}>
            <Text size="sm" id="story-fit-offset">
              <Trans>Положение кадра</Trans>
            </Text>
            <Slider
              aria-labelledby="story-fit-offset"
              thumbLabel={t`Положение кадра`}
              min={0}
              max={100}
              step={1}
              size="lg"
              thumbSize={28}
              value={Math.round(offset * 100)}
              onChange={(v) => setOffset(v / 100)}
              label={(v) => `${v} %`}
            />
          </Stack>
        ) : (
          <ColorInput
            label={t`Цвет полей`}
            format="hex"
            value={colour}
            onChange={setColour}
            error={colourOk ? undefined : t`Введите цвет, например #ffffff`}
            swatches={[...new Set([props.defaultColour, '#ffffff', '#000000'])]}
            eyeDropperButtonProps={{ 'aria-label': t`Взять цвет с экрана` }}
          />
        )}
        {props.error ? (
          <Alert color="red" role="alert">
            {props.error}
          </Alert>
        ) : null}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={props.onCancel} disabled={props.busy}>
            <Trans>Отмена</Trans>
          </Button>
          <Button onClick={choose} loading={props.busy} disabled={mode === 'fit' && !colourOk}>
            <Trans>Добавить слайд</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
