import { renderHook, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { uploadFile } from '../../src/sync/mutators/files.ts'
import { createRecord } from '../../src/sync/mutators/records.ts'
import { setCurrentWorkspace } from '../../src/sync/mutators/workspaces.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import {
  useCurrentWorkspaceId,
  useFileUrl,
  useFileUrlResolver,
  useIdRedirect,
  LIST_FIRST_ROWS,
  useRecordList,
  useRecords,
  useSyncMarks,
} from '../../src/mirror/live.ts'

let db: MirrorDb
let n = 0
beforeEach(() => {
  n += 1
  db = new MirrorDb(`live-${n}`)
  setDb(db)
})

describe('live hooks over the mirror', () => {
  it('lists records of a workspace in the lists’ order: by name (numbers by value), then id', async () => {
    await db.location.bulkPut([
      { id: 9, workspace_id: 1, name: 'Б', address: '', phone: '' },
      { id: 3, workspace_id: 1, name: 'а', address: '', phone: '' },
      { id: 4, workspace_id: 2, name: 'Чужая', address: '', phone: '' },
    ])
    await createRecord('location', 1, { name: 'Новая 10', address: '', phone: '' })
    await createRecord('location', 1, { name: 'Новая 2', address: '', phone: '' })
    await createRecord('location', 1, { name: 'Б', address: '', phone: '' })
    const { result } = renderHook(() => useRecords('location', 1))
    await waitFor(() => expect(result.current?.map((r) => r.id)).toEqual([3, -3, 9, -2, -1]))
  })

  it('paints a long list’s first screen from a small read, then the whole list', async () => {
    const rows = Array.from({ length: LIST_FIRST_ROWS * 3 }, (_, i) => ({
      id: i + 1,
      workspace_id: 1,
      name: `Отдел ${String(LIST_FIRST_ROWS * 3 - i).padStart(3, '0')}`,
      description: '',
    }))
    await db.department.bulkPut(rows)
    const seen: { count: number; partial: boolean; first: string | undefined }[] = []
    const { result } = renderHook(() => {
      const list = useRecordList('department', 1)
      if (list.items)
        seen.push({
          count: list.items.length,
          partial: list.partial,
          first: list.items[0]?.name,
        })
      return list
    })
    await waitFor(() => expect(result.current.items).toHaveLength(LIST_FIRST_ROWS * 3))
    expect(result.current.partial).toBe(false)
    // The first answer: the first screen in name order, marked as part of the list.
    expect(seen[0]).toEqual({ count: LIST_FIRST_ROWS, partial: true, first: 'Отдел 001' })
  })

  it('reads a short list once, whole', async () => {
    await db.department.bulkPut([
      { id: 1, workspace_id: 1, name: 'Хирургия', description: '' },
      { id: 2, workspace_id: 1, name: 'Терапия', description: '' },
    ])
    const { result } = renderHook(() => useRecordList('department', 1))
    await waitFor(() => expect(result.current.items).toHaveLength(2))
    expect(result.current.partial).toBe(false)
    expect(result.current.items?.map((d) => d.name)).toEqual(['Терапия', 'Хирургия'])
  })

  it('marks records with pending and parked changes', async () => {
    await db.outbox.bulkAdd([
      {
        key: 'a',
        table: 'department',
        ck: '5',
        op: 'update',
        payload: {},
        state: 'pending',
        attempts: 0,
        nextAttemptAt: 0,
        sent: false,
        label: '',
        createdAt: 0,
      },
      {
        key: 'b',
        table: 'department',
        ck: '6',
        op: 'update',
        payload: {},
        state: 'parked',
        attempts: 0,
        nextAttemptAt: 0,
        sent: true,
        label: '',
        createdAt: 0,
      },
      {
        key: 'c',
        table: 'location',
        ck: '7',
        op: 'update',
        payload: {},
        state: 'pending',
        attempts: 0,
        nextAttemptAt: 0,
        sent: false,
        label: '',
        createdAt: 0,
      },
    ])
    const { result } = renderHook(() => useSyncMarks('department'))
    await waitFor(() =>
      expect([...result.current.entries()]).toEqual([
        [5, 'pending'],
        [6, 'parked'],
      ]),
    )
  })

  it('remembers the current workspace and falls back to the first by name', async () => {
    await db.workspaces.bulkPut([
      { id: 2, name: 'Яблоко' },
      { id: 1, name: 'Альфа' },
    ])
    const { result } = renderHook(() => useCurrentWorkspaceId())
    await waitFor(() => expect(result.current).toBe(1))
    await setCurrentWorkspace(2)
    await waitFor(() => expect(result.current).toBe(2))
  })

  it('follows a local id to the server id that replaced it, by the key the row was born with', async () => {
    const row = { id: -3, ck: '-3', workspace_id: 1, name: 'Вера' }
    await db.mirror('specialist').add(row)
    const { result } = renderHook(() => useIdRedirect('specialist', -3))
    await waitFor(() => expect(result.current).toBeNull())
    await db.transaction('rw', db.specialist, async () => {
      await db.mirror('specialist').put({ ...row, id: 42 })
      await db.specialist.delete(-3)
    })
    await waitFor(() => expect(result.current).toBe(42))
  })

  it('resolves local-file urls to the server url once uploaded; other urls pass through', async () => {
    // (A Blob does not survive fake-indexeddb under jsdom, so the object-url case is left to the browser.)
    const url = await uploadFile(new Blob(['x'], { type: 'image/png' }))
    const { result } = renderHook(() => useFileUrl(url))
    await waitFor(() => expect(result.current).toBe(''))
    await db.files.update(Number(url.split(':')[1]), { uploadedUrl: '/uploads/a.png', blob: null })
    await waitFor(() => expect(result.current).toBe('/uploads/a.png'))
    const { result: plain } = renderHook(() => useFileUrl('/uploads/b.png'))
    expect(plain.current).toBe('/uploads/b.png')
  })
  it('resolves any url; a file still being read gives nothing to load', async () => {
    const first = await uploadFile(new Blob(['x'], { type: 'image/png' }))
    const second = await uploadFile(new Blob(['y'], { type: 'video/webm' }))
    const { result } = renderHook(() => useFileUrlResolver())
    // Never the local-file address itself: nothing could load it.
    expect(result.current(first)).toBe('')
    await db.files.update(Number(second.split(':')[1]), {
      uploadedUrl: '/uploads/clip.webm',
      blob: null,
    })
    await waitFor(() => expect(result.current(second)).toBe('/uploads/clip.webm'))
    expect(result.current(first)).toBe('')
    expect(result.current('/uploads/c.png')).toBe('/uploads/c.png')
    expect(result.current('local-file:999')).toBe('')
    // A rerender with the same answers keeps the same function (the editor's callbacks stay put).
    const before = result.current
    await db.files.update(Number(first.split(':')[1]), { createdAt: 1 })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(result.current).toBe(before)
  })
})
