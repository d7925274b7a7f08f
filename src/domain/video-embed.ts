/**
 * Video links a page shows as a click-to-load player (docs/publishing.md,
 * "What a visitor's browser runs"): YouTube, VK Video and Rutube. Nothing of theirs loads before a
 * visitor taps; then their player's address (`embed`) goes into a frame.
 */
export interface VideoEmbed {
  provider: 'youtube' | 'vk' | 'rutube'
  /** The player's address for a frame, playing at once. */
  embed: string
  /** The video's own page (a link, for a visitor without JavaScript). */
  watch: string
}

/** The hosts the players are framed from (the pages' Content-Security-Policy `frame-src`). */
export const EMBED_ORIGINS = [
  'https://www.youtube-nocookie.com',
  'https://vk.com',
  'https://vkvideo.ru',
  'https://rutube.ru',
] as const

export function videoEmbed(link: string): VideoEmbed | null {
  let url: URL
  try {
    url = new URL(link.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  const host = url.hostname.replace(/^(www\.|m\.)/, '')
  if (host === 'youtube.com' || host === 'youtu.be') {
    const id =
      host === 'youtu.be'
        ? url.pathname.slice(1)
        : url.pathname === '/watch'
          ? (url.searchParams.get('v') ?? '')
          : (/^\/(?:shorts|embed|live)\/([^/]+)/.exec(url.pathname)?.[1] ?? '')
    if (!/^[A-Za-z0-9_-]{6,20}$/.test(id)) return null
    return {
      provider: 'youtube',
      embed: `https://www.youtube-nocookie.com/embed/${id}?autoplay=1&playsinline=1`,
      watch: `https://www.youtube.com/watch?v=${id}`,
    }
  }
  if (host === 'vk.com' || host === 'vkvideo.ru' || host === 'vk.ru') {
    const match =
      /(?:^\/|[=/])video(-?\d+)_(\d+)/.exec(url.pathname + url.search) ??
      /z=video(-?\d+)_(\d+)/.exec(url.search)
    if (!match) return null
    const [, oid, id] = match
    return {
      provider: 'vk',
      embed: `https://vk.com/video_ext.php?oid=${oid}&id=${id}&hd=2&autoplay=1`,
      watch: `https://vkvideo.ru/video${oid}_${id}`,
    }
  }
  if (host === 'rutube.ru') {
    const id = /^\/(?:video|play\/embed|shorts)\/([0-9a-f]{32})/.exec(url.pathname)?.[1]
    if (!id) return null
    return {
      provider: 'rutube',
      embed: `https://rutube.ru/play/embed/${id}?autoplay=1`,
      watch: `https://rutube.ru/video/${id}/`,
    }
  }
  return null
}
