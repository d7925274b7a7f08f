import { beforeEach, describe, expect, it } from 'vitest'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import type { EntryState, OutboxEntry } from '../../src/data/entries.ts'
import { QUERIES } from '../../src/data/queries.ts'

/** The marks list rows carry (docs/SYNC.md): what a record's queued changes need of the person. */

let db: MirrorDb
let n = 0
beforeEach(() => {
  n += 1
  db = new MirrorDb(`sync-marks-${n}`)
  setDb(db)
})

/** A department's entry; `complete` stands for a block-save chain's last step, never marked. */
const entry = (
  ck: string,
  partial: Partial<EntryState> & { op?: 'update' | 'complete' } = {},
): OutboxEntry =>
  ({
    key: crypto.randomUUID(),
    table: 'department',
    ck,
    op: 'update',
    payload: {},
    state: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    sent: false,
    label: 'Кардиология',
    createdAt: 0,
    ...partial,
  }) as OutboxEntry
const conflict = {
  state: 'parked' as const,
  code: 'conflict',
  message: 'Запись изменена',
  baseVersion: 4,
  conflict: {
    version: 5,
    fields: [{ field: 'name', mine: 'А', theirs: 'Б' }],
    current: { id: 7, version: 5, name: 'Б' },
  },
}

describe('sync marks of a list', () => {
  it('tags a conflict «conflict», a refusal «parked», a queued change «pending», the most pressing first', async () => {
    await db.outbox.bulkAdd([
      entry('5'),
      entry('6', { state: 'parked', code: 'not_found', message: 'Не найдено' }),
      entry('6'),
      entry('7'),
      entry('7', conflict),
      entry('8', { state: 'parked', code: 'validation_error', message: 'Нет' }),
      entry('8', conflict),
      entry('9', { op: 'complete' }),
    ])
    const marks = await QUERIES.syncMarks('department')
    expect(Object.fromEntries(marks)).toEqual({
      5: 'pending',
      6: 'parked',
      7: 'conflict',
      8: 'conflict',
    })
  })
})
