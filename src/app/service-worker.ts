/**
 * What must happen before a new version of the app takes over. This module is part of the first
 * load and holds only the hook; the registration (src/app/after-first-render.ts), workbox-window
 * and the update prompt load after the first render.
 */

type BeforeUpdateHook = () => Promise<void>

let beforeUpdate: BeforeUpdateHook = () => Promise.resolve()

/**
 * Registers what must happen before a new version replaces this one (the outbox flush). It runs
 * when the user presses «Обновить»; if it rejects, the update is cancelled and the user told why.
 */
export function setBeforeUpdateHook(hook: BeforeUpdateHook): void {
  beforeUpdate = hook
}

/** Runs the registered hook (the update flow calls it). */
export function runBeforeUpdate(): Promise<void> {
  return beforeUpdate()
}
