/**
 * The published page's one script (docs/publishing.md), inlined and allowed by its hash: it only
 * adds what needs JavaScript. Without it every block is shown and works as plain HTML (stories
 * stacked one under another, target buttons as anchors, videos with the browser's controls).
 *
 * It must stand alone: `pageScript.toString()` is what the page carries, so it closes over
 * nothing and uses no imports; what it shares with the app comes in as arguments, themselves
 * standalone functions (`render.tsx` writes them into the call).
 *
 * @param stillTime the moment of a clip its still shows (`editor/blocks/shared.ts`)
 */
export function pageScript(stillTime: (durationS: number) => number): void {
  const doc = document
  // A video's play sign plays its clip with the browser's controls from then on; an outside
  // video's (YouTube, VK Video, Rutube) loads its player in a frame only now.
  doc.addEventListener('click', (event) => {
    const target = event.target as Element
    // A press on a block's link or button is counted (docs/analytics.md): a beacon to the
    // page's own address, with the visit's utm_source and referrer.
    if (target.closest('[data-block-type] a, [data-block-type] button') && navigator.sendBeacon) {
      const body = new URLSearchParams()
      body.set('s', new URLSearchParams(location.search).get('utm_source') ?? '')
      body.set('r', doc.referrer)
      navigator.sendBeacon(`${location.pathname.replace(/\/+$/, '')}/beacon`, body)
    }
    const trigger = target.closest('[data-play]') ?? target.closest('[data-embed]')
    if (!trigger) return
    const block = trigger.parentElement
    const facade = block?.querySelector<HTMLElement>('[data-embed]')
    if (facade) {
      event.preventDefault()
      const frame = doc.createElement('iframe')
      frame.src = facade.getAttribute('data-embed') ?? ''
      frame.title = facade.getAttribute('aria-label') ?? ''
      frame.allow = 'autoplay; encrypted-media; fullscreen; picture-in-picture'
      frame.allowFullscreen = true
      frame.setAttribute('style', `${facade.getAttribute('style') ?? ''};border:0`)
      facade.replaceWith(frame)
      block?.querySelector('[data-play]')?.remove()
      return
    }
    const video = block?.querySelector('video')
    if (!video) return
    event.preventDefault()
    video.controls = true
    video.preload = 'auto'
    // From its start, as the preview plays it (the still may have moved it).
    video.currentTime = 0
    void video.play().catch(() => undefined)
    trigger.remove()
  })
  // An uploaded video shows the still the canvas and the preview show (docs/publishing.md), not
  // a black box: its clip is asked for its first frames once the page has loaded and the video
  // comes near the screen, so nothing of it competes with the first screen.
  const stills = () => {
    const videos = doc.querySelectorAll<HTMLVideoElement>('[data-block-type] video')
    if (videos.length === 0 || !('IntersectionObserver' in window)) return
    const near = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue
          const video = entry.target as HTMLVideoElement
          near.unobserve(video)
          // Played already: it shows what it plays.
          if (video.controls) continue
          video.addEventListener(
            'loadedmetadata',
            () => {
              if (!video.controls) video.currentTime = stillTime(video.duration)
            },
            { once: true },
          )
          video.preload = 'metadata'
          video.load()
        }
      },
      { rootMargin: '50% 0px' },
    )
    videos.forEach((video) => near.observe(video))
  }
  if (doc.readyState === 'complete') stills()
  else window.addEventListener('load', stills, { once: true })
  const forms = doc.querySelector<HTMLElement>('[data-forms]')
  if (forms) sendFormsInPlace(forms)
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
    // A request form is open over the slide it was opened from.
    if (location.hash.startsWith('#form-')) return Math.max(current, 0)
    const n = Number.parseInt(location.hash.slice(1), 10)
    if (Number.isInteger(n) && n >= 1) return n - 1
    // A target button's anchor names a slide by its background.
    const found = slides.findIndex((slide) => `#${slide.id}` === location.hash)
    return found >= 0 ? found : 0
  }
  show(fromHash(), false)
  window.addEventListener('hashchange', () => show(fromHash(), true))
  doc.addEventListener('keydown', (event) => {
    if (location.hash.startsWith('#form-')) return
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
  /**
   * The request forms (docs/requests.md) sent in place: JSON to the form's own address, the
   * visit's UTM parameters and referrer added; a new submission id each time a form is opened, the
   * same one when a failed send is tried again (the server takes one request per id).
   */
  function sendFormsInPlace(root: HTMLElement): void {
    const say = (key: string) => root.getAttribute(`data-msg-${key}`) ?? ''
    const search = new URLSearchParams(location.search)
    const newId = () => {
      const bytes = new Uint8Array(16)
      crypto.getRandomValues(bytes)
      return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
    }
    const opened = () => {
      const id = location.hash.slice(1)
      if (!id.startsWith('form-')) return
      const sheet = doc.getElementById(id)
      const form = sheet?.querySelector<HTMLFormElement>('[data-form]')
      if (!form || form.hidden) return
      const field = form.elements.namedItem('submission_id') as HTMLInputElement | null
      if (field) field.value = `${newId()}-${id.slice(5)}`
      form.querySelector<HTMLInputElement>('input[name=name]')?.focus()
    }
    window.addEventListener('hashchange', opened)
    // The forms' stamped fields come after this script (forms.tsx, `FormStamps`).
    if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', opened)
    else opened()
    doc.addEventListener('submit', (event) => {
      const form = (event.target as Element).closest<HTMLFormElement>('[data-form]')
      if (!form) return
      event.preventDefault()
      if (form.dataset.busy) return
      const button = form.querySelector<HTMLButtonElement>('button[type=submit]')
      const problem = form.querySelector<HTMLElement>('[data-form-error]')
      const data: Record<string, unknown> = Object.fromEntries(new FormData(form))
      data.consent = (form.elements.namedItem('consent') as HTMLInputElement | null)?.checked
      for (const key of ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term']) {
        const value = search.get(key)
        if (value) data[key] = value
      }
      data.referrer = doc.referrer
      form.querySelectorAll<HTMLElement>('[data-error]').forEach((el) => {
        el.hidden = true
        el.textContent = ''
      })
      form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'))
      if (problem) problem.hidden = true
      const label = button?.textContent ?? ''
      form.dataset.busy = '1'
      if (button) {
        button.disabled = true
        button.textContent = say('sending')
      }
      const fail = (text: string) => {
        if (!problem) return
        problem.textContent = text
        problem.hidden = false
      }
      // The public page's own script, outside the app: it has no API client and needs no token.
      // eslint-disable-next-line no-restricted-globals
      fetch(form.action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(data),
      })
        .then(async (res) => {
          if (res.ok) {
            form.hidden = true
            const done = form.parentElement?.querySelector<HTMLElement>('[data-done]')
            if (done) done.hidden = false
            return
          }
          if (res.status === 429) return fail(say('busy'))
          const body = (await res.json().catch(() => null)) as {
            error?: { message?: string; fields?: Record<string, string> }
          } | null
          const fields = body?.error?.fields ?? {}
          let shown = false
          for (const [name, text] of Object.entries(fields)) {
            const input = form.elements.namedItem(name) as HTMLElement | null
            const slot = input ? doc.getElementById(`${input.id}-error`) : null
            if (input && slot) {
              input.setAttribute('aria-invalid', 'true')
              slot.textContent = text
              slot.hidden = false
              shown = true
            }
          }
          if (!shown) fail(body?.error?.message ?? say('failed'))
        })
        .catch(() => fail(say('network')))
        .finally(() => {
          delete form.dataset.busy
          if (button) {
            button.disabled = false
            button.textContent = label
          }
        })
    })
  }
}
