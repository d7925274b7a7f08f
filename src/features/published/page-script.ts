/**
 * The published page's one script (docs/publishing.md), inlined and allowed by its hash: it only
 * adds what needs JavaScript. Without it every block is shown and works as plain HTML (stories
 * stacked one under another, target buttons as anchors, videos with the browser's controls).
 *
 * It must stand alone: `pageScript.toString()` is what the page carries, so it closes over
 * nothing and uses no imports.
 */
export function pageScript(): void {
  const doc = document
  // A video's play sign plays its clip with the browser's controls from then on.
  doc.addEventListener('click', (event) => {
    const button = (event.target as Element).closest('[data-play]')
    if (!button) return
    const video = button.parentElement?.querySelector('video')
    if (!video) return
    event.preventDefault()
    video.controls = true
    video.preload = 'auto'
    void video.play().catch(() => undefined)
    button.remove()
  })
  const stories = doc.querySelector<HTMLElement>('[data-stories]')
  if (!stories) return
  const slides = Array.from(stories.querySelectorAll<HTMLElement>('section'))
  const marks = Array.from(doc.querySelectorAll<HTMLElement>('[data-mark]'))
  const bar = doc.querySelector<HTMLElement>('[data-progress]')
  if (slides.length === 0) return
  doc.documentElement.classList.add('js-stories')
  let current = -1
  const show = (index: number, push: boolean) => {
    const next = Math.max(0, Math.min(slides.length - 1, index))
    if (next === current) return
    current = next
    slides.forEach((slide, i) => {
      slide.hidden = i !== next
    })
    marks.forEach((mark, i) => mark.classList.toggle('on', i <= next))
    bar?.setAttribute('aria-valuenow', String(next + 1))
    const hash = `#${next + 1}`
    if (push && location.hash !== hash) history.replaceState(null, '', hash)
  }
  const fromHash = () => {
    const n = Number.parseInt(location.hash.slice(1), 10)
    if (Number.isInteger(n) && n >= 1) return n - 1
    // A target button's anchor names a slide by its background.
    const found = slides.findIndex((slide) => `#${slide.id}` === location.hash)
    return found >= 0 ? found : 0
  }
  show(fromHash(), false)
  window.addEventListener('hashchange', () => show(fromHash(), true))
  doc.addEventListener('keydown', (event) => {
    if (['ArrowRight', 'ArrowDown', 'PageDown', ' '].includes(event.key)) {
      event.preventDefault()
      show(current + 1, true)
    } else if (['ArrowLeft', 'ArrowUp', 'PageUp'].includes(event.key)) {
      event.preventDefault()
      show(current - 1, true)
    }
  })
  let start: { x: number; y: number } | null = null
  stories.addEventListener('pointerdown', (event) => {
    start = { x: event.clientX, y: event.clientY }
  })
  stories.addEventListener('pointercancel', () => (start = null))
  stories.addEventListener('pointerup', (event) => {
    const from = start
    start = null
    if (!from) return
    const dx = event.clientX - from.x
    const dy = event.clientY - from.y
    if (Math.abs(dx) >= 40 && Math.abs(dx) > Math.abs(dy)) {
      show(current + (dx < 0 ? 1 : -1), true)
      return
    }
    if (Math.abs(dx) > 10 || Math.abs(dy) > 10) return
    // Taps on the slide's own controls belong to them.
    if ((event.target as Element).closest('a, button, video, input, textarea, label')) return
    const rect = stories.getBoundingClientRect()
    show(current + (event.clientX - rect.left < rect.width / 3 ? -1 : 1), true)
  })
}
