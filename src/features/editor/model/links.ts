/**
 * Where a block's button may take a visitor: checked links and the anchors of backgrounds. Pure:
 * the block types' modules (`blocks/<type>.ts`) and the preview's layout use them.
 */

/** A link a visitor may follow: http(s) only; anything else (javascript:, typos) → null. */
export function safeHref(value: string): string | null {
  const trimmed = value.trim()
  if (!trimmed) return null
  try {
    const url = new URL(trimmed)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

/**
 * A button's link a visitor may follow: http(s), a phone (`tel:`) or an e-mail address
 * (`mailto:`); anything else (`javascript:`, typos) → null.
 */
export function buttonLink(value: string): string | null {
  const trimmed = value.trim()
  const tel = /^tel:\s*(\+?[\d\s().-]{3,30})$/i.exec(trimmed)
  if (tel) return `tel:${tel[1]!.replace(/[^\d+]/g, '')}`
  const mail = /^mailto:([^\s@<>"'?#]+@[^\s@<>"'?#]+\.[^\s@<>"'?#]+)$/i.exec(trimmed)
  if (mail) return `mailto:${mail[1]}`
  return safeHref(trimmed)
}

/** The page anchor of a background (a section of a landing, a slide of stories). */
export function backgroundAnchor(bgId: number | string): string {
  return `bg-${bgId}`
}

/**
 * A button's destination: a checked link, or for a target (its value is a background's id,
 * docs/editor.md) the anchor of that background.
 */
export function buttonHref(btnType: 'link' | 'target', value: string): string | null {
  if (btnType === 'link') return buttonLink(value)
  const id = value.trim().replace(/^#/, '')
  return id ? `#${backgroundAnchor(encodeURIComponent(id))}` : null
}
