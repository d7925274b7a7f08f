import type { Application, Container } from 'pixi.js'
import { RenderScheduler } from './render-scheduler.ts'

/**
 * The part of a Pixi render group that hears about every change below it: a moved, shown or
 * hidden object (`onChildUpdate`), a redrawn view such as new text or a cleared graphic
 * (`onChildViewUpdate`), and an added, removed or reordered child (`structureDidChange`).
 * These are Pixi internals of the pinned version (8.22); `watchGroup` is the one place that knows.
 */
interface GroupHooks {
  onChildUpdate(child: Container): void
  onChildViewUpdate(child: Container): void
  structureDidChange: boolean
}

/** Calls `changed` whenever anything under `container` (a render group) changes. */
function watchGroup(container: Container, changed: () => void): () => void {
  container.enableRenderGroup()
  const group = (container as unknown as { renderGroup: GroupHooks }).renderGroup
  const { onChildUpdate, onChildViewUpdate } = group
  let structure = group.structureDidChange
  group.onChildUpdate = (child) => {
    changed()
    onChildUpdate.call(group, child)
  }
  group.onChildViewUpdate = (child) => {
    changed()
    onChildViewUpdate.call(group, child)
  }
  Object.defineProperty(group, 'structureDidChange', {
    configurable: true,
    enumerable: true,
    get: () => structure,
    set: (value: boolean) => {
      structure = value
      if (value) changed()
    },
  })
  return () => {
    const own = group as Partial<GroupHooks>
    // The prototype's methods show through again.
    delete own.onChildUpdate
    delete own.onChildViewUpdate
    delete own.structureDidChange
    group.structureDidChange = structure
  }
}

/**
 * Draws the stage only when something in it changed, instead of Pixi's ticker drawing every frame:
 * an idle editor draws nothing. React's commits, the interaction's direct moves and the overlay all
 * change display objects, which is what the watched render groups report.
 */
export class OnDemandRender {
  readonly scheduler: RenderScheduler
  private unwatch = new Map<Container, () => void>()

  constructor(
    private readonly app: Application,
    onFrame: (frames: number) => void = () => undefined,
  ) {
    this.scheduler = new RenderScheduler(() => {
      // The stage may go between the request and the frame.
      if (!this.app.renderer) return
      this.app.render()
      onFrame(this.scheduler.frames)
    })
    app.stop()
    // The editor reads pointers from the DOM itself (interaction.ts). Pixi's event system would
    // hit-test the whole scene on every move and keep a frame loop running to re-test the pointer.
    app.stage.eventMode = 'none'
    app.renderer.events.setTargetElement(null as unknown as HTMLElement)
    this.watch(app.stage)
    this.scheduler.request()
  }

  /** Containers made render groups of their own (the world) report their changes too. */
  watch(container: Container) {
    if (this.unwatch.has(container)) return
    this.unwatch.set(container, watchGroup(container, this.scheduler.request))
    this.scheduler.request()
  }

  request() {
    this.scheduler.request()
  }

  destroy() {
    this.scheduler.stop()
    for (const [container, undo] of this.unwatch) if (!container.destroyed) undo()
    this.unwatch.clear()
    // Handing back a stage that is still alive: Pixi's ticker and events take over again.
    if (!this.app.renderer) return
    this.app.renderer.events.setTargetElement(this.app.canvas)
    this.app.start()
  }
}
