import { screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { LayersPanel } from '../../src/features/editor/layers-panel.tsx'
import { EditorStore } from '../../src/features/editor/model/editor-store.ts'
import type { ParkedEntry } from '../../src/sync/client.ts'
import { textBlock as block } from './helpers/editor-data.ts'
import { renderInApp } from './helpers/render-app.tsx'

const parked: ParkedEntry[] = [
  {
    seq: 1,
    table: 'blocks',
    recordId: 7,
    op: 'save',
    label: 'Скидка',
    message: '',
    code: 'conflict',
    fields: {},
    conflict: { fields: [{ field: 'x', mine: 60, theirs: 80 }], current: { id: 7 } },
  },
]
vi.mock('../../src/sync/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/sync/client.ts')>()),
  useParkedEntries: () => parked,
}))

const texts = { text: 'Т', button: 'К', gift: 'П', priceButton: 'К', subscribeAction: 'З' }

describe('layers of a slide with a conflict', () => {
  it('marks the block whose change waits for the person’s choice', async () => {
    const store = new EditorStore({ texts, frameWidth: 1200 })
    store.setBackgrounds([{ id: 10, width: 1600, height: 900, position: 0 }])
    store.syncFromData([block(7, 'Скидка'), block(8, 'Подарок')])
    await renderInApp(() => <LayersPanel store={store} state={store.getState()} bgId={10} />)
    const marks = await screen.findAllByTestId('layer-conflict')
    expect(marks).toHaveLength(1)
    expect(marks[0]!.closest('[role="listitem"]')).toHaveTextContent('Скидка')
  })
})
