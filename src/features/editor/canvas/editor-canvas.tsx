import '../editor-messages.ts'
import { useLingui } from '@lingui/react/macro'
import { Application, extend, useApplication } from '@pixi/react'
import { Container, Graphics, Sprite, Text, type Application as PixiApp } from 'pixi.js'
// The app's Content-Security-Policy has no 'unsafe-eval'; Pixi then needs its eval-free shaders
// and uniform uploads, or the stage never starts.
import 'pixi.js/unsafe-eval'
import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
  type RefObject,
} from 'react'
import type { Point, Rect } from '../../../domain/geometry.ts'
import type { Background } from '../../../domain/project.ts'
import { sortedKeys, type EditorStore } from '../model/editor-store.ts'
import { layoutFrames, type EditorKind } from '../model/layout.ts'
import { useBlockLabels } from '../blocks/use-block-labels.ts'
import { BlockView, type CanvasLabels } from './block-view.tsx'
import { CanvasInteraction } from './interaction.ts'
import { PixelText } from './pixel-text.ts'
import { SceneHost, type CanvasBlockProbe, type CanvasController } from './scene-host.ts'
import { releasePoolsOnDestroy } from './release-pools.ts'
import { SceneContainer } from './scene-container.ts'
import { trackStage } from './texture-census.ts'
import { useTexture } from './textures.ts'

export type { CanvasController }

// `<pixiContainer>` is a SceneContainer: a removed block or background takes its texts and
// graphics with it (scene-container.ts).
extend({ Container: SceneContainer, Graphics, Sprite, Text, PixelText })

/**
 * The open canvas's test hook: browser journeys read where each block is drawn
 * (`window.__promoEditorCanvas.blocks()`). Present only while an editor canvas is on screen, and
 * only in the test build (`test-hooks.ts`).
 */
export interface CanvasTestHook {
  blocks(): CanvasBlockProbe[]
  /** Shows a block at a zoom, in the middle or with its corner at a page point (pixel check). */
  lookAt(key: string, zoom: number, corner?: Point): void
  /** Frames drawn inside a rectangle only (`damage.ts`). */
  limitedFrames(): number
  /** Draws the whole scene again on the next frame. */
  drawWhole(): void
  /**
   * Pan and pinch pictures begun from the canvas's own pixels, strips drawn into them, and pans
   * that ended without drawing the scene again.
   */
  panPictures(): { copied: number; strips: number; kept: number }
  /** Nothing waits to be drawn (no frame asked for, no paragraph waiting for the view to rest). */
  settled(): boolean
}
declare global {
  interface Window {
    __promoEditorCanvas?: CanvasTestHook
  }
}

export interface EditorCanvasProps {
  store: EditorStore
  /** The backgrounds drawn: all sections (landing) or the current slide (stories). */
  backgrounds: Background[]
  kind: EditorKind
  grid: { enabled: boolean; size: number }
  resolveFileUrl: (url: string) => string
  specialistName: (id: number | null) => string | null
  /** Receives the canvas's controls once the stage is ready (null when it goes). */
  onController: (controller: CanvasController | null) => void
  onZoomChange: (zoom: number) => void
  onActiveBackground: (bgId: number) => void
  onContextMenu: (point: Point, key: string | null) => void
}

const GRID_COLOR = 0x228be6
/** The canvas's resolution: the device's, up to 2 (docs/editor.md "Frame cost"). */
const RESOLUTION = Math.min(2, window.devicePixelRatio || 1)

/** The Pixi stage of the editor (loaded lazily: Pixi stays out of the entry chunk). */
function EditorCanvas(props: EditorCanvasProps) {
  const hostRef = useRef<HTMLDivElement>(null)
  const { t } = useLingui()
  const labels = useBlockLabels()
  // @pixi/react starts the renderer asynchronously and, once it has started, renders the scene it
  // was given first, after every later render: props that changed meanwhile (the specialists' names
  // arrive from the mirror a moment after the blocks) were lost until some other change, so a
  // subscribe block read «Специалист не выбран» after a reload. Rendering again once started hands
  // the stage the current props.
  const [, setStarted] = useState(false)
  const onInit = useCallback((app: PixiApp) => {
    releasePoolsOnDestroy(app)
    // Browser checks read which renderer runs (WebGL is expected) and count its textures.
    if (import.meta.env.VITE_TEST_HOOKS === '1') {
      if (hostRef.current) hostRef.current.dataset.renderer = app.renderer.name
      trackStage(app)
    }
    setStarted(true)
  }, [])
  return (
    <div
      ref={hostRef}
      data-testid="editor-canvas"
      role="application"
      aria-label={t`Холст редактора`}
      style={{
        position: 'absolute',
        inset: 0,
        touchAction: 'none',
        userSelect: 'none',
        overflow: 'hidden',
      }}
    >
      <Application
        resizeTo={hostRef}
        background="#dee2e6"
        // No multisampling (docs/editor.md "Frame cost"): it doubled a whole frame's cost among
        // 1,000 blocks, and the canvas comes closer to the preview's pixels without it (texts are
        // drawn on whole pixels, `pixel-text.ts`, and multisampling only blurred them).
        antialias={false}
        // The picture is kept between frames, so a frame that changes one place draws that place
        // alone (`damage.ts`; docs/editor.md "Drawing one place").
        preserveDrawingBuffer
        autoDensity
        resolution={RESOLUTION}
        preference="webgl"
        onInit={onInit}
      >
        <Scene {...props} labels={labels} hostRef={hostRef} />
      </Application>
    </div>
  )
}

export default memo(EditorCanvas)

function Scene(
  props: EditorCanvasProps & { labels: CanvasLabels; hostRef: RefObject<HTMLDivElement | null> },
) {
  const { store, backgrounds, kind, grid, onController, hostRef } = props
  const { app, isInitialised } = useApplication()
  const state = useSyncExternalStore(store.subscribe, store.getState)
  const frames = useMemo(() => layoutFrames(backgrounds, kind), [backgrounds, kind])
  const [host] = useState(() => new SceneHost(store))
  const { onZoomChange, onActiveBackground, onContextMenu } = props

  useEffect(() => {
    host.update({
      frames,
      grid,
      kind,
      callbacks: { onZoomChange, onActiveBackground, onContextMenu },
    })
  }, [host, frames, grid, kind, onZoomChange, onActiveBackground, onContextMenu])

  // Text heights feed the store's geometry (marquee, align).
  useEffect(() => {
    store.setMeasure(host.measureUnits)
    return () => store.setMeasure(null)
  }, [store, host])

  useEffect(() => {
    const el = hostRef.current
    if (!el || !isInitialised) return
    host.attachApp(app, el)
    const interaction = new CanvasInteraction(el, host)
    host.setOverlaySource(() => interaction.overlayState)
    const detach = interaction.attach()
    onController(host)
    const hook: CanvasTestHook | null =
      import.meta.env.VITE_TEST_HOOKS === '1'
        ? {
            blocks: () => host.probe(),
            lookAt: host.lookAt,
            limitedFrames: host.limitedFrames,
            drawWhole: host.drawWhole,
            panPictures: host.panPictures,
            settled: host.settled,
          }
        : null
    if (hook) window.__promoEditorCanvas = hook
    return () => {
      detach()
      onController(null)
      host.attachApp(null, null)
      if (hook && window.__promoEditorCanvas === hook) delete window.__promoEditorCanvas
    }
  }, [host, hostRef, isInitialised, app, onController])

  const worldRef = useCallback((c: Container | null) => host.setWorld(c), [host])
  const overlayRef = useCallback((g: Graphics | null) => host.setOverlay(g), [host])

  // Fit once the stage exists, and whenever the slide of a story changes.
  const fitKey =
    kind === 'stories' ? backgrounds.map((b) => b.id).join(',') : backgrounds.length > 0
  useEffect(() => {
    if (isInitialised) host.fit()
  }, [host, isInitialised, fitKey])

  // Selection outlines and handles follow the store.
  useEffect(() => {
    host.redrawOverlay()
  }, [state, frames, grid, host])

  return (
    <>
      <pixiContainer ref={worldRef}>
        {backgrounds.map((bg) => {
          const frame = frames.get(bg.id)!
          return (
            <BackgroundView
              key={bg.id}
              bg={bg}
              frame={frame}
              grid={grid}
              resolveFileUrl={props.resolveFileUrl}
            >
              {sortedKeys(state.blocks, bg.id).map((key) => (
                <BlockView
                  key={key}
                  blockKey={key}
                  block={state.blocks.get(key)!}
                  frameWidth={frame.width}
                  frameHeight={frame.height}
                  labels={props.labels}
                  resolveFileUrl={props.resolveFileUrl}
                  specialistName={props.specialistName}
                  register={host.register}
                  onMeasured={host.onMeasured}
                />
              ))}
            </BackgroundView>
          )
        })}
      </pixiContainer>
      <pixiGraphics ref={overlayRef} draw={noop} />
    </>
  )
}

const noop = () => undefined

function BackgroundView({
  bg,
  frame,
  grid,
  resolveFileUrl,
  children,
}: {
  bg: Background
  frame: Rect
  grid: { enabled: boolean; size: number }
  resolveFileUrl: (url: string) => string
  children: ReactNode
}) {
  const texture = useTexture(bg.image_url ? resolveFileUrl(bg.image_url) : '')
  const drawBase = useCallback(
    (g: Graphics) => {
      g.clear()
      g.rect(-1, -1, frame.width + 2, frame.height + 2).fill({ color: 0x000000, alpha: 0.12 })
      g.rect(0, 0, frame.width, frame.height).fill({ color: 0xffffff })
    },
    [frame.width, frame.height],
  )
  const drawGrid = useCallback(
    (g: Graphics) => {
      g.clear()
      if (!grid.enabled || grid.size <= 0) return
      for (let x = grid.size; x < frame.width; x += grid.size)
        g.moveTo(x, 0).lineTo(x, frame.height)
      for (let y = grid.size; y < frame.height; y += grid.size)
        g.moveTo(0, y).lineTo(frame.width, y)
      g.stroke({ width: 1, color: GRID_COLOR, alpha: 0.18, pixelLine: true })
    },
    [grid.enabled, grid.size, frame.width, frame.height],
  )
  return (
    <pixiContainer x={frame.left} y={frame.top} label={`bg-${bg.id}`}>
      <pixiGraphics draw={drawBase} />
      {texture.status === 'ready' ? (
        <pixiSprite texture={texture.texture} width={frame.width} height={frame.height} />
      ) : null}
      <pixiGraphics draw={drawGrid} />
      {children}
    </pixiContainer>
  )
}
