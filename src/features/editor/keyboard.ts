/** Whether keyboard input goes to a field (the editor's shortcuts then stay out of the way). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  const tag = target.tagName
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable
}

/** Ctrl on Windows and Linux, Cmd on Apple devices. */
export function hasCommandKey(event: KeyboardEvent): boolean {
  return event.ctrlKey || event.metaKey
}
