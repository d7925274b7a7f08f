/**
 * `npm run bench events`: what open event streams cost everyone else (docs/API.md, "Live changes").
 *
 * A server instance runs in a process of its own (tests/bench/server-instance.ts, PGlite in
 * memory), the client in this one. Six people share a workspace and hold 300 streams of it open
 * (50 each over three sign-ins: 20, 20 and 10, the caps of server/services/events.ts); two loops
 * write into that workspace one update after another, each update an event for all 300 streams.
 * Meanwhile another person, in a workspace of their own, calls their department list one call
 * after another. The figure is that person's p50 with the 300 streams open over their p50 with no
 * stream open, the two writers running in both phases (the goal is ≤ 1.5): what the streams cost,
 * the writes' own cost cancelled out. Each round measures nothing running (for reference), the
 * writers alone, then the writers with the streams (5 rounds; the median ratio is the figure,
 * max − min the spread), so the machine's drift falls on both sides alike.
 * Every loaded phase also checks the streams got every event once
 * (`events_fanout_delivered_share`: 1 when all did).
 *
 * `BENCH_SMOKE=1` (or `{ smoke: true }`): 1 round, 30 streams, 20 calls per phase (seconds).
 */
import { startInstance } from './server-bench.ts'
import { isSmoke, type BenchOptions } from './smoke.ts'

interface Session {
  token: string
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export async function runEventsBench(options: BenchOptions = {}): Promise<Record<string, number>> {
  const smoke = isSmoke(options)
  const rounds = smoke ? 1 : 5
  const people = smoke ? 3 : 6
  const perPerson = smoke ? 10 : 50
  const calls = smoke ? 20 : 200
  const instance = await startInstance({
    type: 'start',
    role: 'server',
    options: { port: 0, dataDir: 'memory', uploadSweepEveryMs: 0 },
  })
  const base = instance.url
  const call = async <T>(method: string, path: string, token: string | null, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }
  const register = async (n: number) => {
    const email = `events-${n}-${Date.now()}@example.ru`
    const auth = await call<{ access_token: string }>('POST', '/api/register', null, {
      name: `Участник ${n}`,
      email,
      password: 'password123',
    })
    const [own] = await call<{ id: number }[]>('GET', '/api/workspace/list', auth.access_token)
    return { email, token: auth.access_token, workspaceId: own!.id }
  }
  /** The admin invites the person, who accepts (docs/API.md, "Members"). */
  const join = async (admin: string, id: number, person: { email: string; token: string }) => {
    await call('POST', '/api/workspace/member/add', admin, {
      workspace_id: id,
      email: person.email,
    })
    const waiting = await call<{ id: number; workspace_id: number }[]>(
      'GET',
      '/api/workspace/invitations',
      person.token,
    )
    const invitation = waiting.find((i) => i.workspace_id === id)!
    await call('POST', '/api/workspace/invitation/accept', person.token, { id: invitation.id })
  }
  const signIn = async (email: string): Promise<Session> => ({
    token: (
      await call<{ access_token: string }>('POST', '/api/login', null, {
        email,
        password: 'password123',
      })
    ).access_token,
  })

  try {
    // The shared workspace and its people, each with sign-ins enough for their streams.
    const owner = await register(0)
    const workspaceId = owner.workspaceId
    const sessions: Session[][] = []
    for (let n = 0; n < people; n++) {
      const person = n === 0 ? owner : await register(n)
      if (n > 0) await join(owner.token, workspaceId, person)
      const own = [{ token: person.token }]
      while (own.length * 20 < perPerson) own.push(await signIn(person.email))
      sessions.push(own)
    }
    const written = await instance.seed(workspaceId, 2)
    const other = await register(people)
    await instance.seed(other.workspaceId, 50)
    const listPath = `/api/department/list?workspace_id=${other.workspaceId}`

    const listP50 = async () => {
      const took: number[] = []
      for (let i = 0; i < calls; i++) {
        const started = performance.now()
        const res = await fetch(base + listPath, {
          headers: { Authorization: `Bearer ${other.token}` },
        })
        await res.arrayBuffer()
        if (!res.ok) throw new Error(`list: ${res.status}`)
        took.push(performance.now() - started)
      }
      return median(took)
    }

    // Two writing loops, each an update after another of a department of the workspace.
    const writing = () => {
      let on = true
      let writes = 0
      const me = sessions[0]![0]!.token
      const loop = async (id: number, tag: string) => {
        for (let i = 0; on; i++) {
          await call('POST', '/api/department/update', me, { id, name: `${tag} ${i}` })
          writes++
        }
      }
      const loops = [loop(written[0]!, 'Первый'), loop(written[1]!, 'Второй')]
      return async () => {
        on = false
        await Promise.all(loops)
        return writes
      }
    }

    const ratios: number[] = []
    const idles: number[] = []
    const quiets: number[] = []
    const loadeds: number[] = []
    const delivered: number[] = []
    for (let round = 0; round < rounds; round++) {
      idles.push(await listP50())
      // The writers alone: what the person's calls cost without a stream open.
      const stopQuiet = writing()
      quiets.push(await listP50())
      await stopQuiet()

      // The streams, each read to the end as a tab would.
      const aborts: AbortController[] = []
      const counts: number[] = []
      const opened: Promise<void>[] = []
      for (const own of sessions) {
        for (let i = 0; i < perPerson; i++) {
          const token = own[Math.floor(i / 20)]!.token
          const abort = new AbortController()
          aborts.push(abort)
          const index = counts.push(0) - 1
          opened.push(
            new Promise<void>((resolve, reject) => {
              void (async () => {
                try {
                  const res = await fetch(`${base}/api/events?workspace_id=${workspaceId}`, {
                    headers: { Authorization: `Bearer ${token}` },
                    signal: abort.signal,
                  })
                  if (!res.ok || !res.body) throw new Error(`events: ${res.status}`)
                  const decoder = new TextDecoder()
                  let first = true
                  // The end of the previous chunk: a line split between two is counted once.
                  let carry = ''
                  const reader = res.body.getReader()
                  for (let read = await reader.read(); !read.done; read = await reader.read()) {
                    const text = carry + decoder.decode(read.value, { stream: true })
                    counts[index]! += text.split('\ndata: ').length - 1
                    carry = text.slice(-6)
                    if (first) {
                      first = false
                      resolve()
                    }
                  }
                } catch (error) {
                  if (!abort.signal.aborted) reject(error as Error)
                }
              })()
            }),
          )
        }
      }
      await Promise.all(opened)

      const stop = writing()
      loadeds.push(await listP50())
      const writes = await stop()
      // Every stream gets every event: wait for the last to arrive (a few seconds at most).
      const expected = writes * counts.length
      const deadline = Date.now() + 10_000
      while (counts.reduce((a, b) => a + b, 0) < expected && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50))
      delivered.push(counts.reduce((a, b) => a + b, 0) / expected)
      for (const abort of aborts) abort.abort()
      ratios.push(loadeds[round]! / quiets[round]!)
      console.log(
        `round ${round + 1}: p50 idle ${idles[round]!.toFixed(2)} ms, two writers` +
          ` ${quiets[round]!.toFixed(2)} ms, two writers and ${counts.length} streams` +
          ` ${loadeds[round]!.toFixed(2)} ms (${writes} writes):` +
          ` ratio ${ratios[round]!.toFixed(2)}, delivered ${(delivered[round]! * 100).toFixed(1)} %`,
      )
      // Let the server see the streams go before the next round.
      if (round < rounds - 1) await new Promise((resolve) => setTimeout(resolve, 300))
    }
    const streams = people * perPerson
    return {
      [`events_fanout_p50_ratio_${streams}_streams`]: median(ratios),
      events_fanout_p50_ratio_spread: Math.max(...ratios) - Math.min(...ratios),
      events_fanout_idle_p50_ms: median(idles),
      events_fanout_writers_p50_ms: median(quiets),
      events_fanout_loaded_p50_ms: median(loadeds),
      events_fanout_delivered_share: Math.min(...delivered),
    }
  } finally {
    await instance.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await runEventsBench())
}
