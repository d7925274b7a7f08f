import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../server/db/migrations.ts'
import { BLOCK_DEFAULTS as SERVER_DEFAULTS } from '../../server/services/block-defaults.ts'
import { APPEAL_KINDS } from '../../src/domain/appeal.ts'
import {
  Block,
  BLOCK_DOMAINS,
  BLOCK_SCHEMAS,
  BLOCK_TYPES,
  type BlockType,
  ITEM_BLOCK_TYPES,
  referencedIds,
  requestFieldsOf,
  REQUEST_BLOCK_TYPES,
  WIDGET_BLOCK_TYPES,
} from '../../src/domain/block.ts'
import { formatPrice } from '../../src/domain/format.ts'
import { BLOCK_DEFINITIONS, requestFormOf } from '../../src/features/editor/blocks/index.ts'
import type { BlockLabels } from '../../src/features/editor/blocks/types.ts'
import { BLOCK_PANELS } from '../../src/features/editor/blocks/panels.ts'
import { defaultBlock } from '../../src/features/editor/model/block-shape.ts'

/**
 * The values a CHECK (`column` IN (…)) on `table` allows once every migration has run: the last
 * statement creating or altering the table with such a check decides.
 */
function checkedValues(table: string, column: string): string[] {
  const owns = new RegExp(`(CREATE|ALTER) TABLE ${table}\\b`)
  const check = new RegExp(`CHECK \\(${column} IN \\(([^)]*)\\)\\)`)
  let values: string[] | null = null
  for (const statement of MIGRATIONS.join('\n').split(';')) {
    const found = owns.test(statement) ? check.exec(statement) : null
    if (found) values = found[1]!.split(',').map((s) => s.trim().replace(/^'|'$/g, ''))
  }
  expect(values, `CHECK on ${table}.${column}`).not.toBeNull()
  return values!
}

describe('block registry, domain part (docs/editor.md «Adding a block type»)', () => {
  it('registers every block type once, under its own name', () => {
    expect(BLOCK_TYPES).toEqual(Object.keys(BLOCK_DOMAINS))
    expect(new Set(BLOCK_TYPES).size).toBe(BLOCK_TYPES.length)
    for (const type of BLOCK_TYPES) {
      expect(BLOCK_DOMAINS[type].type).toBe(type)
      expect(BLOCK_SCHEMAS[type]).toBe(BLOCK_DOMAINS[type].schema)
      expect(BLOCK_SCHEMAS[type].entries.type.literal).toBe(type)
    }
    expect(Block.options).toHaveLength(BLOCK_TYPES.length)
    expect([...ITEM_BLOCK_TYPES, ...WIDGET_BLOCK_TYPES].sort()).toEqual([...BLOCK_TYPES].sort())
  })

  it.each(BLOCK_TYPES)(
    '%s: its defaults are every field but the geometry and pass its schema',
    (type) => {
      const domain = BLOCK_DOMAINS[type]
      expect(['item', 'widget']).toContain(domain.endpoints)
      if (domain.request) expect(domain.request, 'request').toBeTypeOf('function')
      const geometry = { bg_id: 1, x: 0, y: 0, zindex: 0, rotation: 0 }
      const sizes = { width: 10, height: 10, scaleX: 1, scaleY: 1, fontSize: 4 }
      const own = Object.keys(domain.schema.entries).filter(
        (k) => !(k in geometry) && !(k in sizes) && !['id', 'version', 'type'].includes(k),
      )
      expect(Object.keys(domain.defaults).sort()).toEqual(own.sort())
      const sized = Object.fromEntries(
        Object.entries(sizes).filter(([k]) => k in domain.schema.entries),
      )
      const block = { ...geometry, ...sized, ...domain.defaults, type }
      expect(v.safeParse(domain.schema, block).success).toBe(true)
      // The server's defaults are the module's, not a copy.
      expect(SERVER_DEFAULTS[type]).toBe(domain.defaults)
    },
  )

  it('the database allows exactly the registered types (a new type needs a migration)', () => {
    expect(checkedValues('blocks', 'type').sort()).toEqual([...BLOCK_TYPES].sort())
  })

  it('a request keeps of its block what its type says, and a block of another type has no form', () => {
    const fields = (block: Record<string, unknown>) => requestFieldsOf({ id: 1, ...block } as never)
    expect(fields({ type: 'text', text: 'a' })).toBeNull()
    expect(fields({ type: 'unknown' })).toBeNull()
    expect(fields({ type: 'gift', button_hook_url: 'https://hook.example' })).toEqual({
      specialist_id: null,
      date: '',
      price: null,
      hook_url: 'https://hook.example',
    })
    expect(fields({ type: 'price', text_price: 1500 })).toMatchObject({ price: 1500, hook_url: '' })
    expect(fields({ type: 'subscribe', specialist_id: 7, date: '2026-03-01' })).toMatchObject({
      specialist_id: 7,
      date: '2026-03-01',
      price: null,
    })
    expect(referencedIds({ type: 'subscribe', specialist_id: 7 }, 'specialist')).toEqual([7])
    expect(referencedIds({ type: 'subscribe', specialist_id: null }, 'specialist')).toEqual([])
    expect(referencedIds({ type: 'gift' }, 'specialist')).toEqual([])
  })

  it('requests are of the types that take them, in the database and in the API', () => {
    expect(checkedValues('appeals', 'kind').sort()).toEqual([...REQUEST_BLOCK_TYPES].sort())
    expect([...APPEAL_KINDS].sort()).toEqual([...REQUEST_BLOCK_TYPES].sort())
  })
})

const texts = { text: 'Т', button: 'К', gift: 'П', priceButton: 'К', subscribeAction: 'З' }

describe('block registry, editor part (docs/editor.md «Adding a block type»)', () => {
  it('registers every type of the domain, and nothing else', () => {
    expect(Object.keys(BLOCK_DEFINITIONS).sort()).toEqual([...BLOCK_TYPES].sort())
    expect(Object.keys(BLOCK_PANELS).sort()).toEqual([...BLOCK_TYPES].sort())
  })

  it('the types that take requests, and only they, say what their form says', () => {
    const withForm = BLOCK_TYPES.filter((type) => BLOCK_DEFINITIONS[type].requestForm)
    expect(withForm.sort()).toEqual([...REQUEST_BLOCK_TYPES].sort())
    const labels = {
      giftButton: 'Получить подарок',
      buy: 'Купить',
      subscribe: 'Записаться',
      noSpecialist: 'Специалист не выбран',
    } as BlockLabels
    const block = (type: BlockType, fields: Record<string, unknown>) => ({
      ...defaultBlock(type, 1, { width: 1600, height: 900 }, 0, texts),
      id: 5,
      ...fields,
    })
    const specialist = { name: 'Иванова Анна', position: 'Терапевт' }
    expect(requestFormOf(block('text', {}), { labels, specialist: null })).toBeNull()
    expect(
      requestFormOf(block('gift', { text: 'Чистка', button_url: 'https://a.example' }), {
        labels,
        specialist: null,
      }),
    ).toEqual({
      title: 'Чистка',
      lines: [],
      submit: 'Получить подарок',
      comment: false,
      gift: { text: 'Чистка', url: 'https://a.example' },
    })
    expect(
      requestFormOf(block('price', { text: 'Чистка', text_price: 1500, button_text: ' ' }), {
        labels,
        specialist: null,
      }),
    ).toMatchObject({
      title: 'Чистка',
      lines: [formatPrice(1500)],
      submit: 'Купить',
      comment: false,
    })
    expect(
      requestFormOf(block('subscribe', { specialist_id: 7, action: 'Прийти' }), {
        labels,
        specialist,
      }),
    ).toMatchObject({ title: 'Иванова Анна', lines: ['Терапевт'], submit: 'Прийти', comment: true })
    // Fields that are not its type's: no form words rather than wrong ones.
    expect(
      requestFormOf(block('price', { text_price: 'много' }), { labels, specialist: null }),
    ).toBeNull()
  })

  it.each(BLOCK_TYPES)('%s: its module provides every part', (type) => {
    const def = BLOCK_DEFINITIONS[type]
    expect(def.type).toBe(type)
    expect(def.label.id, 'label').toBeTruthy()
    expect(typeof def.defaults, 'defaults').toBe('function')
    expect(typeof def.appearance, 'appearance').toBe('function')
    expect(typeof def.fonts, 'fonts').toBe('function')
    expect(def.handles, 'handles').toBeDefined()
    // A stored height is a field of the type's schema (`StoredHeightType` reads it there).
    expect(def.storedHeight, 'storedHeight').toBe('height' in BLOCK_DOMAINS[type].schema.entries)
    expect(Array.isArray(def.content) && Array.isArray(def.style)).toBe(true)
    const panel = BLOCK_PANELS[type]
    expect(panel.icon, 'icon').toBeTruthy()
    expect(typeof panel.Panel, 'panel').toBe('function')
    // A new block starts from the domain's defaults (its texts translated, its geometry its own).
    const block = defaultBlock(type, 1, { width: 1600, height: 900 }, 0, texts)
    const domain = BLOCK_DOMAINS[type]
    for (const [field, value] of Object.entries(domain.defaults)) {
      if (typeof value !== 'string' || value !== '') {
        if (field !== 'text_price') expect(block, field).toHaveProperty(field, value)
      }
    }
    expect(v.safeParse(domain.schema, block).success).toBe(true)
    // Request-taking blocks have a button to open their form.
    if (domain.request) expect(def.action, 'action').toBeTypeOf('function')
  })
})
