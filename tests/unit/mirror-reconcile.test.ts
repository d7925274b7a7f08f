import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { keysOfIds } from '../../src/data/keyed.ts'
import { MirrorDb } from '../../src/data/db.ts'
import { sameRow, sameValue } from '../../src/domain/same-value.ts'
import { reconcile } from '../../src/sync/mirror.ts'
import { inAll } from '../../src/sync/mutators/apply.ts'

/**
 * Writing a refresh into the mirror (docs/SYNC.md, "Refresh (pull)"): what it writes, and the keys of
 * rows it has just deleted, read at once rather than one by one.
 */

let db: MirrorDb
let n = 0

beforeEach(async () => {
  n += 1
  db = new MirrorDb(`mirror-reconcile-${n}`)
  await db.open()
})
afterEach(async () => {
  db.close()
  await db.delete()
})

const department = (id: number, name: string) => ({
  id,
  ck: String(id),
  workspace_id: 1,
  name,
  description: '',
  version: 1,
})

/** Counts the rows a refresh writes (put over an existing row, or a new one). */
function countWrites(): { count: number } {
  const seen = { count: 0 }
  db.department.hook('creating', () => {
    seen.count += 1
  })
  db.department.hook('updating', () => {
    seen.count += 1
  })
  return seen
}

const inWorkspace = (t: Parameters<Parameters<typeof reconcile>[2]>[0]) =>
  t.where('workspace_id').equals(1).toArray()

describe('a refresh written into the mirror', () => {
  it('writes only the rows the server changed, and deletes the ones it no longer has', async () => {
    await db.department.bulkPut([
      department(1, 'Терапия'),
      department(2, 'Хирургия'),
      department(3, 'Лор'),
    ])
    const writes = countWrites()
    const gone = await inAll(db, () =>
      reconcile(db, 'department', inWorkspace, [
        department(1, 'Терапия'),
        { ...department(2, 'Хирургия и ортопедия'), version: 2 },
        department(4, 'Педиатрия'),
      ]),
    )
    expect(gone).toEqual([3])
    expect(writes.count).toBe(2)
    expect((await db.department.toArray()).map((d) => d.name)).toEqual([
      'Терапия',
      'Хирургия и ортопедия',
      'Педиатрия',
    ])
  })

  it('the same list again writes nothing', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => department(i + 1, `Отделение ${i + 1}`))
    await inAll(db, () => reconcile(db, 'department', inWorkspace, rows))
    const writes = countWrites()
    await inAll(db, () => reconcile(db, 'department', inWorkspace, rows))
    expect(writes.count).toBe(0)
    expect(await db.department.count()).toBe(120)
  })

  it('keys rows new to the mirror as their re-keys say, few or many', async () => {
    // Rows made here, answered, then deleted here: their re-keys hold the keys they were made under.
    await db.rekeyed.bulkPut([
      { table: 'department', ck: 'made-here-7', id: 7 },
      { table: 'department', ck: 'made-here-70', id: 70 },
    ])
    for (const count of [10, 120]) {
      const rows = Array.from({ length: count }, (_, i) => department(i + 1, `Отделение ${i + 1}`))
      await db.department.clear()
      await inAll(db, () => reconcile(db, 'department', inWorkspace, rows))
      expect((await db.mirror('department').get(7))?.ck).toBe('made-here-7')
      if (count > 70) expect((await db.mirror('department').get(70))?.ck).toBe('made-here-70')
      expect((await db.mirror('department').get(8))?.ck).toBe('8')
    }
  })

  it('tells the keys of rows it has just deleted, few or many', async () => {
    await db.rekeyed.bulkPut([
      { table: 'department', ck: 'made-here-3', id: 3 },
      { table: 'location', ck: 'other-table-4', id: 4 },
    ])
    await db.department.bulkPut([department(1, 'Терапия')])
    expect(await keysOfIds(db, 'department', [1, 2, 3, 4])).toEqual(['1', '2', 'made-here-3', '4'])
    const many = Array.from({ length: 200 }, (_, i) => i + 1)
    const keys = await keysOfIds(db, 'department', many)
    expect(keys[2]).toBe('made-here-3')
    expect(keys[3]).toBe('4')
    expect(keys[199]).toBe('200')
  })
})

describe('the same values', () => {
  it('compares plain values as they are and objects by their JSON', () => {
    expect(sameValue('a', 'a')).toBe(true)
    expect(sameValue(null, undefined)).toBe(false)
    expect(
      sameValue({ slug: 'a', changed_since: false }, { slug: 'a', changed_since: false }),
    ).toBe(true)
    expect(sameValue({ slug: 'a' }, { slug: 'b' })).toBe(false)
    expect(sameRow({ id: 1, name: 'x' }, { id: 1, name: 'x' })).toBe(true)
    expect(sameRow({ id: 1, name: 'x' }, { id: 1, name: 'x', extra: null })).toBe(false)
    expect(sameRow({ id: 1, a: null }, { id: 1, b: null })).toBe(false)
  })
})
