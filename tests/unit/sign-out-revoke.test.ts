// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { configureApi } from '../../src/api/client.ts'
import { REVOKE_KEY } from '../../src/features/auth/revoke-key.ts'
import { flushRevocations, tokensToRevoke } from '../../src/features/auth/revoke.ts'
import { installTokenRevocation } from '../../src/app/after-first-render.ts'
import {
  readSession,
  setUnsyncedChangesHook,
  signOut,
  startSession,
} from '../../src/features/auth/session.ts'

const user = { id: 7, name: 'Анна', email: 'anna@example.ru', role: 'editor' as const }

function signInAs(token: string) {
  startSession({
    access_token: token,
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    user,
  })
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })

/** Every request the page sent: method, path and bearer. */
function recordFetch(answer: () => Promise<Response>) {
  const sent: { method: string; path: string; authorization: string | null }[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers)
    sent.push({
      method: init?.method ?? 'GET',
      path: new URL(String(input), 'http://app.test').pathname,
      authorization: headers.get('Authorization'),
    })
    return answer()
  })
  vi.stubGlobal('fetch', fetchMock)
  return sent
}

beforeEach(() => {
  localStorage.clear()
  configureApi({ baseUrl: 'http://app.test', getToken: () => readSession().token })
  installTokenRevocation()
})

afterEach(() => {
  vi.unstubAllGlobals()
  setUnsyncedChangesHook(async () => 0)
})

describe('signing out', () => {
  it('sends POST /api/logout with the signed-out token, and the server’s 200 is the end of it', async () => {
    const sent = recordFetch(async () => json(200, { ok: true }))
    signInAs('token-of-anna')
    expect(await signOut({ confirm: async () => true })).toBe(true)
    await vi.waitFor(() => expect(tokensToRevoke()).toEqual([]))
    expect(sent).toEqual([
      { method: 'POST', path: '/api/logout', authorization: 'Bearer token-of-anna' },
    ])
  })

  it('never waits for the network: the session is gone while the request still hangs', async () => {
    let answer: (response: Response) => void = () => undefined
    const sent = recordFetch(() => new Promise<Response>((resolve) => (answer = resolve)))
    signInAs('token-of-anna')
    expect(await signOut({ confirm: async () => true })).toBe(true)
    expect(readSession().token).toBeNull()
    await vi.waitFor(() => expect(sent.map((r) => r.path)).toEqual(['/api/logout']))
    expect(tokensToRevoke()).toEqual(['token-of-anna'])
    answer(json(200, {}))
    await vi.waitFor(() => expect(tokensToRevoke()).toEqual([]))
  })

  it('keeps a token whose revocation got no answer and sends it again when the network returns', async () => {
    let online = false
    const sent = recordFetch(async () => {
      if (!online) throw new TypeError('Failed to fetch')
      return json(200, {})
    })
    signInAs('token-of-anna')
    await signOut({ confirm: async () => true })
    await vi.waitFor(() => expect(sent).toHaveLength(1))
    await flushRevocations()
    expect(localStorage.getItem(REVOKE_KEY)).toBe('token-of-anna')

    online = true
    window.dispatchEvent(new Event('online'))
    await vi.waitFor(() => expect(tokensToRevoke()).toEqual([]))
    expect(sent.at(-1)).toEqual({
      method: 'POST',
      path: '/api/logout',
      authorization: 'Bearer token-of-anna',
    })
  })

  it('sends a revocation left from an earlier visit on the next start', async () => {
    localStorage.setItem(REVOKE_KEY, 'token-of-yesterday')
    const sent = recordFetch(async () => json(200, {}))
    installTokenRevocation()
    await vi.waitFor(() => expect(tokensToRevoke()).toEqual([]))
    expect(sent[0]?.authorization).toBe('Bearer token-of-yesterday')
  })

  it.each([404, 401])(
    'counts %i as done (no such call, or the token is gone already)',
    async (status) => {
      recordFetch(async () => json(status, { error: { code: 'x', message: 'Нет' } }))
      signInAs('token-of-anna')
      await signOut({ confirm: async () => true })
      await vi.waitFor(() => expect(tokensToRevoke()).toEqual([]))
    },
  )

  it('keeps the token after a 5xx, to try again', async () => {
    const sent = recordFetch(async () => json(503, { error: { code: 'x', message: 'Нет' } }))
    signInAs('token-of-anna')
    await signOut({ confirm: async () => true })
    await vi.waitFor(() => expect(sent).toHaveLength(1))
    await flushRevocations()
    expect(tokensToRevoke()).toEqual(['token-of-anna'])
  })

  it('revokes nothing when the person stays with changes still waiting', async () => {
    const sent = recordFetch(async () => json(200, {}))
    setUnsyncedChangesHook(async () => 2)
    signInAs('token-of-anna')
    expect(await signOut({ confirm: async () => false })).toBe(false)
    await flushRevocations()
    expect(sent).toEqual([])
    expect(readSession().token).toBe('token-of-anna')
  })
})
