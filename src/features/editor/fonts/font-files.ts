import robotoCyrillic400 from '@fontsource/roboto/files/roboto-cyrillic-400-normal.woff2?url&no-inline'
import robotoLatin400 from '@fontsource/roboto/files/roboto-latin-400-normal.woff2?url&no-inline'
import robotoCyrillic700 from '@fontsource/roboto/files/roboto-cyrillic-700-normal.woff2?url&no-inline'
import robotoLatin700 from '@fontsource/roboto/files/roboto-latin-700-normal.woff2?url&no-inline'
import interCyrillic400 from '@fontsource/inter/files/inter-cyrillic-400-normal.woff2?url&no-inline'
import interLatin400 from '@fontsource/inter/files/inter-latin-400-normal.woff2?url&no-inline'
import interCyrillic700 from '@fontsource/inter/files/inter-cyrillic-700-normal.woff2?url&no-inline'
import interLatin700 from '@fontsource/inter/files/inter-latin-700-normal.woff2?url&no-inline'
import montserratCyrillic400 from '@fontsource/montserrat/files/montserrat-cyrillic-400-normal.woff2?url&no-inline'
import montserratLatin400 from '@fontsource/montserrat/files/montserrat-latin-400-normal.woff2?url&no-inline'
import montserratCyrillic700 from '@fontsource/montserrat/files/montserrat-cyrillic-700-normal.woff2?url&no-inline'
import montserratLatin700 from '@fontsource/montserrat/files/montserrat-latin-700-normal.woff2?url&no-inline'
import ptSansCyrillic400 from '@fontsource/pt-sans/files/pt-sans-cyrillic-400-normal.woff2?url&no-inline'
import ptSansLatin400 from '@fontsource/pt-sans/files/pt-sans-latin-400-normal.woff2?url&no-inline'
import ptSansCyrillic700 from '@fontsource/pt-sans/files/pt-sans-cyrillic-700-normal.woff2?url&no-inline'
import ptSansLatin700 from '@fontsource/pt-sans/files/pt-sans-latin-700-normal.woff2?url&no-inline'
import ptSerifCyrillic400 from '@fontsource/pt-serif/files/pt-serif-cyrillic-400-normal.woff2?url&no-inline'
import ptSerifLatin400 from '@fontsource/pt-serif/files/pt-serif-latin-400-normal.woff2?url&no-inline'
import ptSerifCyrillic700 from '@fontsource/pt-serif/files/pt-serif-cyrillic-700-normal.woff2?url&no-inline'
import ptSerifLatin700 from '@fontsource/pt-serif/files/pt-serif-latin-700-normal.woff2?url&no-inline'
import loraCyrillic400 from '@fontsource/lora/files/lora-cyrillic-400-normal.woff2?url&no-inline'
import loraLatin400 from '@fontsource/lora/files/lora-latin-400-normal.woff2?url&no-inline'
import loraCyrillic700 from '@fontsource/lora/files/lora-cyrillic-700-normal.woff2?url&no-inline'
import loraLatin700 from '@fontsource/lora/files/lora-latin-700-normal.woff2?url&no-inline'
import type { FontSubset, FontWeight } from '../model/fonts.ts'

/**
 * The woff2 files of the web fonts (model/fonts.ts), emitted by Vite under /assets with hashed
 * names. Only the editor's chunk imports this, so the files stay out of the first load and out of
 * the precache: the service worker caches each one the first time it is fetched (workers/sw/fonts-cache.ts).
 * `no-inline` keeps a small file from turning into a data: URL inside the chunk.
 */
export interface FontFile {
  weight: FontWeight
  subset: FontSubset
  url: string
}

export const FONT_FILES: Readonly<Record<string, readonly FontFile[]>> = {
  Roboto: [
    { weight: 400, subset: 'cyrillic', url: robotoCyrillic400 },
    { weight: 400, subset: 'latin', url: robotoLatin400 },
    { weight: 700, subset: 'cyrillic', url: robotoCyrillic700 },
    { weight: 700, subset: 'latin', url: robotoLatin700 },
  ],
  Inter: [
    { weight: 400, subset: 'cyrillic', url: interCyrillic400 },
    { weight: 400, subset: 'latin', url: interLatin400 },
    { weight: 700, subset: 'cyrillic', url: interCyrillic700 },
    { weight: 700, subset: 'latin', url: interLatin700 },
  ],
  Montserrat: [
    { weight: 400, subset: 'cyrillic', url: montserratCyrillic400 },
    { weight: 400, subset: 'latin', url: montserratLatin400 },
    { weight: 700, subset: 'cyrillic', url: montserratCyrillic700 },
    { weight: 700, subset: 'latin', url: montserratLatin700 },
  ],
  'PT Sans': [
    { weight: 400, subset: 'cyrillic', url: ptSansCyrillic400 },
    { weight: 400, subset: 'latin', url: ptSansLatin400 },
    { weight: 700, subset: 'cyrillic', url: ptSansCyrillic700 },
    { weight: 700, subset: 'latin', url: ptSansLatin700 },
  ],
  'PT Serif': [
    { weight: 400, subset: 'cyrillic', url: ptSerifCyrillic400 },
    { weight: 400, subset: 'latin', url: ptSerifLatin400 },
    { weight: 700, subset: 'cyrillic', url: ptSerifCyrillic700 },
    { weight: 700, subset: 'latin', url: ptSerifLatin700 },
  ],
  Lora: [
    { weight: 400, subset: 'cyrillic', url: loraCyrillic400 },
    { weight: 400, subset: 'latin', url: loraLatin400 },
    { weight: 700, subset: 'cyrillic', url: loraCyrillic700 },
    { weight: 700, subset: 'latin', url: loraLatin700 },
  ],
}
