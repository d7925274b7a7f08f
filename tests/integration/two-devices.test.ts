import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import { storeAuthToken } from '../../src/data/sync-state.ts'
import { createSyncEngine, type SyncEngine } from '../../src/sync/engine.ts'
import { updateRecord } from '../../src/sync/mutators/records.ts'
import { json, sharedServer, startHarness, type Harness } from './harness.ts'

/**
 * Two devices of one workspace editing the same records under network faults (docs/SYNC.md,
 * "Conflicts"). Each round both edit from what they last synced, offline, then come back in a
 * random order while requests fail before reaching the server, or reach it and lose their answer.
 * What each device meant is kept apart from the mirror and the server: after the round every
 * field holds what was meant, and a field both changed differently holds the first arrival's
 * value while the other device shows a conflict naming both — no change lost silently.
 */

const FIELDS = ['name', 'description'] as const
type Field = (typeof FIELDS)[number]

function rng(seed: number) {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

interface Device {
  db: MirrorDb
  engine: SyncEngine
}

let h: Harness
let devices: Device[]
const server = sharedServer()
beforeEach(async () => {
  h = await startHarness(server)
  devices = [{ db: h.db, engine: h.engine }]
  const db = new MirrorDb(`two-devices-${Date.now()}-${Math.random()}`)
  await storeAuthToken({ token: h.token, expiry: null }, db)
  devices.push({
    db,
    engine: createSyncEngine({
      db,
      locks: null,
      now: () => h.clock.now,
      random: () => 0.5,
      schedule: () => undefined,
    }),
  })
})
afterEach(async () => {
  devices[1]?.db.close()
  await h.close()
})

type Row = { id: number; name: string; description: string }

async function syncUntilSettled(device: Device) {
  for (let i = 0; i < 30; i += 1) {
    h.clock.now += 400_000
    await device.engine.replay({ resetBackoff: true })
    const pending = await device.db.outbox.where('state').equals('pending').count()
    if (pending === 0) return
  }
  throw new Error('the outbox never settled')
}

const SEEDS = Number(process.env.TWO_DEVICE_SEEDS ?? 6)

describe('two devices, one workspace, under faults', () => {
  for (let seed = 1; seed <= SEEDS; seed += 1) {
    it(`seed ${seed}: every change lands or is shown as a conflict`, async () => {
      const random = rng(seed)
      const ids: number[] = []
      for (let i = 0; i < 3; i += 1) {
        const row = await json<Row>(
          await h.call('POST', '/api/department/add', {
            workspace_id: h.workspaceId,
            name: `Отделение ${i}`,
            description: '',
          }),
        )
        ids.push(row.id)
      }
      for (const device of devices)
        await device.engine.refresh({ kind: 'department', workspaceId: h.workspaceId })

      for (let round = 0; round < 4; round += 1) {
        // What each device means this round: record → field → value.
        const meant = devices.map(() => new Map<number, Map<Field, string>>())
        for (const [d, device] of devices.entries()) {
          setDb(device.db)
          for (const id of ids) {
            const fields = FIELDS.filter(() => random() < 0.45)
            if (fields.length === 0) continue
            const patch: Partial<Record<Field, string>> = {}
            for (const field of fields) patch[field] = `${field} r${round} d${d} ${seed}`
            await updateRecord('department', id, patch)
            meant[d]!.set(id, new Map(Object.entries(patch) as [Field, string][]))
          }
        }
        // Faults while they come back, in a random order.
        h.fault.current = () => {
          const r = random()
          if (r < 0.15) return 'fail-before'
          if (r < 0.3) return 'drop-after'
          return undefined
        }
        const order = random() < 0.5 ? [0, 1] : [1, 0]
        for (const d of order) await devices[d]!.engine.replay()
        h.fault.current = null
        for (const d of order) await syncUntilSettled(devices[d]!)

        // The oracle, per record and field.
        for (const id of ids) {
          const server = await json<Row>(
            await h.call('GET', '/api/department/get', undefined, { id }),
          )
          for (const field of FIELDS) {
            const wants = devices
              .map((_, d) => ({ d, value: meant[d]!.get(id)?.get(field) }))
              .filter((w) => w.value !== undefined)
            if (wants.length === 0) continue
            const held = server[field]
            const landed = wants.filter((w) => w.value === held)
            // Someone's value is on the server, never a value nobody meant.
            expect(landed.length, `${id}.${field}`).toBeGreaterThan(0)
            for (const w of wants) {
              if (w.value === held) continue
              // The other value did not land: its device shows a conflict with both values.
              const conflicts = await devices[w.d]!.db.outbox.where('state')
                .equals('parked')
                .filter((e) => e.ck === String(id) && e.code === 'conflict')
                .toArray()
              const clash = conflicts
                .flatMap((e) => e.conflict?.fields ?? [])
                .find((c) => c.field === field)
              expect(clash, `device ${w.d} lost ${id}.${field} silently`).toMatchObject({
                mine: w.value,
                theirs: held,
              })
            }
          }
        }

        // Each device decides its conflicts: keep its own or take the server's.
        for (const device of devices) {
          const parked = await device.db.outbox.where('state').equals('parked').toArray()
          for (const entry of parked) {
            if (random() < 0.5) await device.engine.retryEntry(entry.seq!)
            else await device.engine.discardEntry(entry.seq!)
          }
          await syncUntilSettled(device)
          expect(await device.db.outbox.where('state').equals('parked').count()).toBe(0)
        }
        // Both see the same thing again before the next round.
        for (const device of devices)
          await device.engine.refresh({ kind: 'department', workspaceId: h.workspaceId })
        for (const id of ids) {
          const server = await json<Row>(
            await h.call('GET', '/api/department/get', undefined, { id }),
          )
          for (const device of devices)
            expect(await device.db.department.get(id)).toMatchObject({
              name: server.name,
              description: server.description,
            })
        }
      }
    }, 60_000)
  }
})
