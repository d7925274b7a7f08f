/**
 * Asks the header's sync indicator to open its panel (the changes that wait and the choices of a
 * conflict): the editor's «Конфликты: N» leads there. Nothing happens while no indicator is on
 * screen.
 */
const openers = new Set<() => void>()

export function openSyncPanel(): void {
  for (const open of openers) open()
}

/** The indicator registers how it opens; the returned function unregisters it. */
export function onOpenSyncPanel(open: () => void): () => void {
  openers.add(open)
  return () => {
    openers.delete(open)
  }
}
