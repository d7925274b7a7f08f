import 'fake-indexeddb/auto'
import { addBackground } from '../../src/sync/mutators/backgrounds.ts'
import { saveBlocks } from '../../src/sync/mutators/blocks.ts'
import { createProject } from '../../src/sync/mutators/projects.ts'
import type { BlockRow } from '../../src/data/types.ts'
import { BLOCK_TYPES } from '../../src/domain/block.ts'
import { pngImage } from '../server/helpers.ts'
import { newBlock } from '../support/convergence-scenario.ts'
import { startSyncWorld } from '../support/sync-world.ts'
import { isSmoke, type BenchOptions } from './smoke.ts'

/**
 * The outbox against a slow network: 200 edits spread over 20 blocks (every block type), flushed
 * by the product (coalescing, the block-save chain, one completion step) versus sent one request
 * per edit, both through the fault proxy adding 150 ms to every request, in the same run. Each side
 * edits blocks of its own (the same types on a background of its own): one side's writes never
 * move the versions of the rows the other's edits started from. `BENCH_SMOKE=1` (or
 * `{ smoke: true }`): one block of each type, two rounds, 20 ms (seconds).
 */
export async function runOutboxBench(options: BenchOptions = {}): Promise<Record<string, number>> {
  const smoke = isSmoke(options)
  const blockCount = smoke ? BLOCK_TYPES.length : 20
  const editCount = smoke ? blockCount * 2 : 200
  const roundTripMs = smoke ? 20 : 150
  const world = await startSyncWorld({ delayMs: roundTripMs })
  try {
    const worker = world.startWorker('bench')
    await worker.engine.refresh({ kind: 'workspaces' })
    const projectId = await createProject(world.workspaceId, 'Замер')
    const png = new Blob([new Uint8Array(pngImage(32, 18))], { type: 'image/png' })
    const blocksOn = async (bgId: number) => {
      await saveBlocks(
        Array.from({ length: blockCount }, (_, i) =>
          newBlock(BLOCK_TYPES[i % BLOCK_TYPES.length]!, bgId, i + 1),
        ),
      )
    }
    await blocksOn(await addBackground(projectId, png, { width: 32, height: 18 }))
    await blocksOn(await addBackground(projectId, png, { width: 32, height: 18 }))
    if ((await worker.engine.replay()) !== 'idle') throw new Error('setup did not sync')
    // Both backgrounds have their server ids now, in the order they were added.
    const [own, naive] = (await world.db.backgrounds.orderBy('id').toArray()).map((bg) => bg.id)
    const blocksOf = async (bg: number | undefined) =>
      (await world.db.blocks.orderBy('id').toArray()).filter((b) => b.bg_id === bg)
    const blocks = await blocksOf(own)
    const naiveBlocks = await blocksOf(naive)
    if (blocks.length !== blockCount || naiveBlocks.length !== blockCount)
      throw new Error('setup did not make the blocks')

    // The edits a person makes: each block moved in turn, ten rounds, each its own save.
    const editsOf = (rows: BlockRow[]) => {
      const out: BlockRow[] = []
      for (let round = 1; round <= editCount / blockCount; round += 1)
        for (const block of rows) out.push({ ...block, x: round, y: -round })
      return out
    }
    const edits = editsOf(blocks)

    world.proxy.setPolicy(() => 'delay')

    // Naive: every edit is its own request, one after the other.
    const naiveStarted = performance.now()
    for (const [i, edit] of editsOf(naiveBlocks).entries()) {
      const response = await fetch(`${world.proxy.url}/api/${edit.type}/add`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${world.token}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': `naive-${i}`,
        },
        body: JSON.stringify(edit),
      })
      if (!response.ok) throw new Error(`naive save ${response.status}`)
      await response.text()
    }
    const naiveMs = performance.now() - naiveStarted

    // The product: the same edits through the commands, then one flush.
    for (const edit of edits) await saveBlocks([{ ...edit, x: edit.x + 0.5 }])
    const sentBefore = world.traffic.sent
    const started = performance.now()
    const outcome = await worker.engine.replay()
    const flushMs = performance.now() - started
    const requests = world.traffic.sent - sentBefore
    if (outcome !== 'idle' || (await world.db.outbox.count()) > 0)
      throw new Error(`flush ended ${outcome}`)

    console.log(
      `${editCount} edits over ${blockCount} blocks at +${roundTripMs} ms: product ${requests} requests ` +
        `in ${(flushMs / 1000).toFixed(2)} s, one request per edit ${editCount} in ${(naiveMs / 1000).toFixed(2)} s`,
    )

    // A realistic session: 200 edits made online — each block dragged in turn, ten moves 40 ms
    // apart, then a pause of 0.8 s — while the replay runs as the page triggers it (300 ms after an
    // entry is queued), so saves go out between the drags and meet new edits.
    const drags = (await blocksOf(blocks[0]!.bg_id)).flatMap((block) =>
      Array.from({ length: editCount / blockCount }, (_, round) => ({
        ...block,
        x: round,
        y: round,
      })),
    )
    const liveBefore = world.traffic.sent
    const liveStarted = performance.now()
    let timer: ReturnType<typeof setTimeout> | undefined
    let replaying: Promise<unknown> = Promise.resolve()
    const trigger = () => {
      clearTimeout(timer)
      timer = setTimeout(() => {
        replaying = replaying.then(() => worker.engine.replay())
      }, 300)
    }
    let pausesMs = 0
    for (const [i, edit] of drags.entries()) {
      await saveBlocks([{ ...edit, x: edit.x + 0.25 }])
      trigger()
      const pause = (i + 1) % 10 === 0 ? 800 : 40
      pausesMs += pause
      await new Promise((resolve) => setTimeout(resolve, pause))
    }
    await new Promise((resolve) => setTimeout(resolve, 350))
    await replaying
    while ((await world.db.outbox.count()) > 0) {
      const again = await worker.engine.replay()
      if (again !== 'idle' && again !== 'busy') throw new Error(`live replay ended ${again}`)
    }
    const liveMs = performance.now() - liveStarted
    const liveRequests = world.traffic.sent - liveBefore
    console.log(
      `${editCount} edits made online while replaying: ${liveRequests} requests, in sync ` +
        `${((liveMs - pausesMs) / 1000).toFixed(2)} s after the last edit`,
    )
    return {
      outbox_requests_200_edits_20_blocks: requests,
      outbox_flush_speedup_vs_naive_150ms: naiveMs / flushMs,
      outbox_requests_200_live_edits_20_blocks: liveRequests,
    }
  } finally {
    await world.close()
  }
}
