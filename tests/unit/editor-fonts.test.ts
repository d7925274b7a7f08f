import { describe, expect, it } from 'vitest'
import type { LocalBlock } from '../../src/features/editor/editor-data.ts'
import type { FontFile } from '../../src/features/editor/fonts/font-files.ts'
import {
  FontLoader,
  type FaceHandle,
  type FontEnvironment,
} from '../../src/features/editor/fonts/font-loader.ts'
import { defaultBlock } from '../../src/features/editor/model/block-shape.ts'
import {
  DEFAULT_FONT,
  FONT_FAMILIES,
  FONT_SUBSETS,
  faceKey,
  facesUsedBy,
  fallbackStack,
  fontStack,
  parseFaceKey,
  webFont,
} from '../../src/features/editor/model/fonts.ts'

const texts = {
  text: 'Текст',
  button: 'Кнопка',
  gift: 'Подарок',
  priceButton: 'Купить',
  subscribeAction: 'Записаться',
}
const BG = { width: 1600, height: 900 }

function block(type: LocalBlock['type'], patch: Record<string, unknown> = {}): LocalBlock {
  return { ...defaultBlock(type, 1, BG, 0, texts), ...patch } as LocalBlock
}

describe('font catalog', () => {
  it('offers web fonts by family name, the default among them', () => {
    expect(FONT_FAMILIES.length).toBeGreaterThanOrEqual(4)
    expect(FONT_FAMILIES).toContain(DEFAULT_FONT)
    expect(new Set(FONT_FAMILIES).size).toBe(FONT_FAMILIES.length)
  })

  it('starts new text and button blocks with the default web font', () => {
    expect((block('text') as { font: string }).font).toBe(DEFAULT_FONT)
    expect((block('button') as { font: string }).font).toBe(DEFAULT_FONT)
  })

  it('finds a family whatever the case and spaces; an empty name is the default', () => {
    expect(webFont('  pt serif ')?.family).toBe('PT Serif')
    expect(webFont('')?.family).toBe(DEFAULT_FONT)
    expect(webFont('Arial')).toBeUndefined()
  })

  it('puts the web font first and system fonts of its shape behind it', () => {
    expect(fontStack('PT Serif')).toBe('"PT Serif", "Georgia", "Times New Roman", serif')
    expect(fontStack('Roboto')).toBe('"Roboto", "Arial", "Helvetica", sans-serif')
    expect(fallbackStack('PT Serif')).toBe('"Georgia", "Times New Roman", serif')
  })

  it('keeps a block saved with a system font on that font', () => {
    expect(fontStack('Arial')).toBe('"Arial", sans-serif')
    expect(fontStack('Times New Roman')).toBe('"Times New Roman", serif')
    expect(fontStack('Courier New')).toBe('"Courier New", monospace')
    // Nothing to load: the canvas draws it at once with the same list.
    expect(fallbackStack('Arial')).toBe(fontStack('Arial'))
  })

  it('never lets a stored name break out of its quotes or the list', () => {
    expect(fontStack('Evil", serif; x{')).toBe('"Evil serif x", sans-serif')
    expect(fontStack('"""')).toBe('sans-serif')
  })

  it('lists each face the blocks use once, and only web fonts', () => {
    const faces = facesUsedBy([
      block('text', { font: 'Lora' }),
      block('text', { font: 'lora' }),
      block('button', { font: 'Arial' }),
      block('image'),
    ])
    expect(faces).toEqual([{ family: 'Lora', weight: 400 }])
  })

  it('needs the default font, regular and bold, for cards', () => {
    const keys = facesUsedBy([block('price'), block('gift')])
      .map(faceKey)
      .sort()
    expect(keys).toEqual([`${DEFAULT_FONT}:400`, `${DEFAULT_FONT}:700`])
  })

  it('reads a face key back, and nothing else', () => {
    expect(parseFaceKey(faceKey({ family: 'Inter', weight: 700 }))).toEqual({
      family: 'Inter',
      weight: 700,
    })
    expect(parseFaceKey('Arial:400')).toBeNull()
    expect(parseFaceKey('Roboto:500')).toBeNull()
    expect(parseFaceKey('')).toBeNull()
  })
})

/** A document's font set that records what was added and lets the test settle each load. */
class FakeFonts implements FontEnvironment {
  added: { family: string; file: FontFile; range: string; face: FakeFace }[] = []
  removed: FaceHandle[] = []
  addFace(family: string, file: FontFile, range: string): FaceHandle {
    const face = new FakeFace()
    this.added.push({ family, file, range, face })
    return face
  }
  removeFace(face: FaceHandle): void {
    this.removed.push(face)
  }
  faces(family: string, weight: number) {
    return this.added.filter((a) => a.family === family && a.file.weight === weight)
  }
}

class FakeFace implements FaceHandle {
  loads = 0
  private settle: { resolve: () => void; reject: (e: Error) => void } | null = null
  load(): Promise<unknown> {
    this.loads += 1
    return new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject }
    })
  }
  succeed() {
    this.settle?.resolve()
  }
  fail() {
    this.settle?.reject(new Error('network'))
  }
}

const FILES: Record<string, FontFile[]> = {
  Roboto: [
    { weight: 400, subset: 'cyrillic', url: '/assets/r-c-400.woff2' },
    { weight: 400, subset: 'latin', url: '/assets/r-l-400.woff2' },
    { weight: 700, subset: 'cyrillic', url: '/assets/r-c-700.woff2' },
    { weight: 700, subset: 'latin', url: '/assets/r-l-700.woff2' },
  ],
  Lora: [
    { weight: 400, subset: 'cyrillic', url: '/assets/l-c-400.woff2' },
    { weight: 400, subset: 'latin', url: '/assets/l-l-400.woff2' },
  ],
}

describe('FontLoader', () => {
  it('registers every file once with its unicode range, without downloading', () => {
    const env = new FakeFonts()
    const loader = new FontLoader(env, FILES)
    loader.register()
    loader.register()
    expect(env.added).toHaveLength(6)
    const cyrillic = env.added.find((a) => a.file.url === '/assets/r-c-400.woff2')!
    expect(cyrillic.range).toBe(FONT_SUBSETS.cyrillic)
    expect(env.added.every((a) => a.face.loads === 0)).toBe(true)
  })

  it('is ready for a system font at once and for a web font only once both files loaded', async () => {
    const env = new FakeFonts()
    const loader = new FontLoader(env, FILES)
    let changes = 0
    loader.subscribe(() => changes++)
    expect(loader.isReady('Arial', 400)).toBe(true)
    expect(loader.isReady('Lora', 400)).toBe(false)

    const first = loader.load({ family: 'Lora', weight: 400 })
    const second = loader.load({ family: 'Lora', weight: 400 })
    const [cyr, lat] = env.faces('Lora', 400)
    expect(cyr!.face.loads + lat!.face.loads).toBe(2) // one download each, however often asked
    cyr!.face.succeed()
    await Promise.resolve()
    expect(loader.isReady('Lora', 400)).toBe(false)
    expect(changes).toBe(0)

    lat!.face.succeed()
    await expect(first).resolves.toBe(true)
    await expect(second).resolves.toBe(true)
    expect(loader.isReady('lora', 400)).toBe(true)
    expect(loader.isReady('Lora', 700)).toBe(false) // no such file: never ready, never crashes
    expect(changes).toBe(1) // one re-render of the texts, when the face became ready
    await expect(loader.load({ family: 'Lora', weight: 400 })).resolves.toBe(true)
    expect(changes).toBe(1)
  })

  it('keeps a failed face failed until asked to retry, then loads fresh faces', async () => {
    const env = new FakeFonts()
    const loader = new FontLoader(env, FILES)
    const face = { family: 'Roboto', weight: 700 } as const
    const loading = loader.load(face)
    const [cyr, lat] = env.faces('Roboto', 700)
    cyr!.face.fail()
    lat!.face.succeed()
    await expect(loading).resolves.toBe(false)
    expect(loader.isReady('Roboto', 700)).toBe(false)

    // Offline: asking again downloads nothing.
    await expect(loader.load(face)).resolves.toBe(false)
    expect(cyr!.face.loads).toBe(1)

    let changes = 0
    loader.subscribe(() => changes++)
    loader.retryFailed()
    expect(changes).toBe(1)
    expect(env.removed).toEqual([cyr!.face, lat!.face])
    const again = loader.load(face)
    const fresh = env.faces('Roboto', 700).slice(2)
    expect(fresh).toHaveLength(2)
    for (const f of fresh) f.face.succeed()
    await expect(again).resolves.toBe(true)
    expect(loader.isReady('Roboto', 700)).toBe(true)
    expect(changes).toBe(2)
  })

  it('draws everything with system fonts where the browser has no font loading', async () => {
    const loader = new FontLoader(null, FILES)
    loader.register()
    await expect(loader.load({ family: 'Roboto', weight: 400 })).resolves.toBe(false)
    expect(loader.isReady('Roboto', 400)).toBe(false)
    expect(loader.isReady('Arial', 400)).toBe(true)
  })
})
