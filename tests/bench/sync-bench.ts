import 'fake-indexeddb/auto'
import { pathToFileURL } from 'node:url'
import { saveBlocks } from '../../src/data/commands.ts'
import type { LocalBlock } from '../../src/data/types.ts'
import { createSyncEngine } from '../../src/sync/engine.ts'
import { startHarness } from '../integration/harness.ts'
import { pngImage } from '../server/helpers.ts'

/**
 * Coalescing: 200 edits spread over 20 blocks of one background, replayed against the reference
 * server with a 150 ms round trip added to every request, once coalesced and once sending every
 * queued entry as it is. Prints the requests sent and the flush time of each.
 *
 *   npx tsx tests/bench/sync-bench.ts
 */
const ROUND_TRIP_MS = 150
const BLOCKS = 20
const EDITS = 200

async function run(coalesce: boolean) {
  const h = await startHarness()
  try {
    const project = (await (
      await h.call('POST', '/api/project/add', { workspace_id: h.workspaceId, name: 'Бенч' })
    ).json()) as { id: number }
    const form = new FormData()
    form.append(
      'file',
      new Blob([new Uint8Array(pngImage(16, 9))], { type: 'image/png' }),
      'bg.png',
    )
    form.append('project_id', String(project.id))
    const bg = (await (await h.call('POST', '/api/project/add_bg', form)).json()) as { id: number }

    const block = (i: number, x: number): LocalBlock => ({
      type: 'text',
      bg_id: bg.id,
      x,
      y: i,
      zindex: i,
      rotation: 0,
      width: 20,
      fontSize: 5,
      font: 'Inter',
      align: 'left',
      color: '#000000',
      text: `Блок ${i}`,
      background: 'transparent',
      name: `Блок ${i}`,
    })
    await saveBlocks(Array.from({ length: BLOCKS }, (_, i) => block(i, 0)))
    // The blocks exist on the server first; the edits below are what is measured.
    await createSyncEngine({ db: h.db, locks: null }).replay()
    const saved = await h.db.blocks.where('bg_id').equals(bg.id).sortBy('zindex')
    for (let e = 0; e < EDITS; e += 1) {
      const b = saved[e % BLOCKS]!
      await saveBlocks([{ ...block(b.zindex, e + 1), id: b.id }])
    }
    const queued = await h.db.outbox.count()

    const wrapped = globalThis.fetch
    globalThis.fetch = async (input, init) => {
      await new Promise((resolve) => setTimeout(resolve, ROUND_TRIP_MS))
      return wrapped(input, init)
    }
    h.sent.length = 0
    const engine = createSyncEngine({ db: h.db, locks: null, coalesce, schedule: () => undefined })
    const started = performance.now()
    await engine.replay()
    const seconds = (performance.now() - started) / 1000
    globalThis.fetch = wrapped
    return { queued, requests: h.sent.length, seconds, left: await h.db.outbox.count() }
  } finally {
    await h.close()
  }
}

export async function runSyncBench(): Promise<Record<string, number>> {
  const coalesced = await run(true)
  const every = await run(false)
  console.log(
    `${EDITS} edits on ${BLOCKS} blocks (${coalesced.queued} outbox entries), ${ROUND_TRIP_MS} ms round trip:`,
  )
  console.log(`  coalesced:  ${coalesced.requests} requests, ${coalesced.seconds.toFixed(1)} s`)
  console.log(`  every edit: ${every.requests} requests, ${every.seconds.toFixed(1)} s`)
  return {
    'sync.coalesced.requests': coalesced.requests,
    'sync.coalesced.seconds': coalesced.seconds,
    'sync.everyEdit.requests': every.requests,
    'sync.everyEdit.seconds': every.seconds,
    'sync.speedup': every.seconds / coalesced.seconds,
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runSyncBench()
}
