/**
 * Unsaved form values that must survive the page remounting under a new address: a record made
 * offline gets its server id while its form is open, the page moves from /specialist/-3 to
 * /specialist/42, and the router mounts the form afresh. The form registers a reader of its
 * values; the page moving hands them over to the form at the new address.
 */
const openForms = new Map<string, () => unknown>()
const handedOver = new Map<string, unknown>()

export function registerOpenForm(key: string, read: () => unknown): () => void {
  openForms.set(key, read)
  return () => {
    if (openForms.get(key) === read) openForms.delete(key)
  }
}

/** Called before moving from `fromKey` to `toKey`: an open form's unsaved values follow. */
export function handOverDraft(fromKey: string, toKey: string): void {
  const values = openForms.get(fromKey)?.()
  if (values !== undefined) handedOver.set(toKey, values)
}

/** The values handed over to this form, once. */
export function takeDraft(key: string): unknown {
  const values = handedOver.get(key)
  handedOver.delete(key)
  return values
}
