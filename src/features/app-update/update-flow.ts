/** The part of workbox-window's `Workbox` the update flow uses (a fake in tests). */
export interface UpdatableWorker {
  addEventListener(
    type: 'waiting' | 'controlling',
    listener: (event: { isUpdate?: boolean }) => void,
  ): void
  messageSkipWaiting(): void
}

export interface UpdateFlow {
  /** Runs before the new version takes over (the outbox flush); a rejection cancels the update. */
  beforeUpdate: () => Promise<void>
  /** Shows «Доступна новая версия … Обновить»; `accept` runs when the user presses «Обновить». */
  showPrompt: (accept: () => Promise<void>) => void
  reload: () => void
}

/**
 * Prompt strategy (STACK traps 4, 6). A new version installs in the background and waits; the user
 * is asked; on «Обновить» the page first flushes what it must (`beforeUpdate`), then tells the
 * waiting worker to take over, and reloads once it controls the page. A flush that fails leaves
 * the old version running and the prompt in place, so pressing again retries; nothing is lost.
 *
 * When another tab accepted the update, the new worker already controls this page while its old
 * code runs: the prompt appears here too, and accepting flushes and reloads.
 */
export function wireUpdatePrompt(worker: UpdatableWorker, flow: UpdateFlow): void {
  let skipRequested = false
  let controlledByNewVersion = false
  let reloading = false

  const reloadOnce = () => {
    if (reloading) return
    reloading = true
    flow.reload()
  }

  const accept = async () => {
    await flow.beforeUpdate()
    if (controlledByNewVersion) {
      reloadOnce()
      return
    }
    skipRequested = true
    worker.messageSkipWaiting()
  }

  worker.addEventListener('waiting', () => flow.showPrompt(accept))

  worker.addEventListener('controlling', (event) => {
    if (skipRequested) {
      reloadOnce()
      return
    }
    // The first install also takes control (clientsClaim): that is no new version.
    if (!event.isUpdate) return
    controlledByNewVersion = true
    flow.showPrompt(accept)
  })
}
