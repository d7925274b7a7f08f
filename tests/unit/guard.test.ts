import { describe, expect, it, vi } from 'vitest'
import { ApiError, ContractError, NetworkError } from '../../src/api/client.ts'
import type { Role, User } from '../../src/domain/user.ts'
import {
  createAuthCheckCache,
  hasAccess,
  isOpenPath,
  runGuard,
  safeRedirectTarget,
  type AccessRule,
  type GuardDeps,
} from '../../src/features/auth/guard.ts'

const NOW = 1_800_000_000_000
const user: User = { id: 7, name: 'Анна', email: 'anna@example.ru', role: 'editor' }

function deps(overrides: Partial<GuardDeps> & { storedRole?: Role } = {}) {
  let role: Role = overrides.storedRole ?? 'admin'
  const onUser = vi.fn((u: User) => {
    role = u.role
  })
  const onUnauthorized = vi.fn()
  const checkAuth = overrides.checkAuth ?? vi.fn(async () => user)
  const full: GuardDeps = {
    session: () => ({ token: 'tok', tokenExpiry: NOW + 60_000 }),
    role: () => role,
    now: () => NOW,
    cache: createAuthCheckCache(30_000),
    ...overrides,
    checkAuth,
    onUser,
    onUnauthorized,
  }
  return { deps: full, onUser, onUnauthorized, checkAuth }
}

const target = (href: string) => ({ pathname: href.split('?')[0] ?? href, href })

describe('open paths', () => {
  it.each([
    '/pages/login',
    '/pages/forgot-password',
    '/pages/error-404',
    '/pages/error-500',
    '/pages/register',
    '/callback',
    '/pages/comingsoon',
    '/pages/login/',
  ])('%s needs no check', async (path) => {
    expect(isOpenPath(path)).toBe(true)
    const d = deps()
    expect(await runGuard(target(path), 'editor', d.deps)).toEqual({
      kind: 'allow',
      user: null,
      offline: false,
    })
    expect(d.checkAuth).not.toHaveBeenCalled()
  })

  it.each(['/projects', '/pages/maintenance', '/pages/not-authorized', '/pages/login-x', '/'])(
    '%s is not open',
    (path) => {
      expect(isOpenPath(path)).toBe(false)
    },
  )
})

describe('auth check', () => {
  it('proceeds on 200 and stores the returned user', async () => {
    const d = deps()
    const result = await runGuard(target('/projects'), 'editor', d.deps)
    expect(result).toEqual({ kind: 'allow', user, offline: false })
    expect(d.checkAuth).toHaveBeenCalledTimes(1)
    expect(d.onUser).toHaveBeenCalledWith(user)
  })

  it('sends a 401 to the login page with the wanted path and search', async () => {
    const d = deps({
      checkAuth: vi.fn(async () => {
        throw new ApiError(401, 'unauthorized', 'Войдите снова')
      }),
    })
    const result = await runGuard(target('/integrations/amo?page=2&q=a'), 'editor', d.deps)
    expect(result).toEqual({ kind: 'login', to: '/integrations/amo?page=2&q=a' })
    expect(d.onUnauthorized).toHaveBeenCalledTimes(1)
    expect(d.onUser).not.toHaveBeenCalled()
  })

  it('lets a stored token before its expiry through when the server is unreachable', async () => {
    const d = deps({
      checkAuth: vi.fn(async () => {
        throw new NetworkError('Failed to fetch')
      }),
    })
    expect(await runGuard(target('/projects'), 'editor', d.deps)).toEqual({
      kind: 'allow',
      user: null,
      offline: true,
    })
    expect(d.onUnauthorized).not.toHaveBeenCalled()
  })

  it('treats a server fault like no answer', async () => {
    const d = deps({
      checkAuth: vi.fn(async () => {
        throw new ApiError(502, 'http_502', '')
      }),
    })
    expect((await runGuard(target('/projects'), 'editor', d.deps)).kind).toBe('allow')
    const broken = deps({
      checkAuth: vi.fn(async () => {
        throw new ContractError('bad body')
      }),
    })
    expect((await runGuard(target('/projects'), 'editor', broken.deps)).kind).toBe('allow')
  })

  it('sends to login on a network error when the token has expired', async () => {
    const d = deps({
      session: () => ({ token: 'tok', tokenExpiry: NOW - 1 }),
      checkAuth: vi.fn(async () => {
        throw new NetworkError('offline')
      }),
    })
    expect(await runGuard(target('/projects'), 'editor', d.deps)).toEqual({
      kind: 'login',
      to: '/projects',
    })
  })

  it('sends to login on a network error without any token or without a known expiry', async () => {
    const offline = vi.fn(async (): Promise<User> => {
      throw new NetworkError('offline')
    })
    const none = deps({ session: () => ({ token: null, tokenExpiry: null }), checkAuth: offline })
    expect((await runGuard(target('/projects'), 'editor', none.deps)).kind).toBe('login')
    const unknown = deps({
      session: () => ({ token: 'tok', tokenExpiry: null }),
      checkAuth: offline,
    })
    expect((await runGuard(target('/projects'), 'editor', unknown.deps)).kind).toBe('login')
  })

  it('caches a successful check for the TTL, per token', async () => {
    let now = NOW
    let token = 'tok'
    const d = deps({
      now: () => now,
      session: () => ({ token, tokenExpiry: NOW + 3_600_000 }),
    })
    await runGuard(target('/projects'), 'editor', d.deps)
    now += 29_000
    await runGuard(target('/analytics'), 'editor', d.deps)
    expect(d.checkAuth).toHaveBeenCalledTimes(1)
    now += 2_000
    await runGuard(target('/analytics'), 'editor', d.deps)
    expect(d.checkAuth).toHaveBeenCalledTimes(2)
    token = 'other'
    await runGuard(target('/analytics'), 'editor', d.deps)
    expect(d.checkAuth).toHaveBeenCalledTimes(3)
  })

  it('does not cache failures', async () => {
    const checkAuth = vi
      .fn<() => Promise<User>>()
      .mockRejectedValueOnce(new ApiError(401, 'unauthorized', ''))
      .mockResolvedValueOnce(user)
    const d = deps({ checkAuth })
    expect((await runGuard(target('/projects'), 'editor', d.deps)).kind).toBe('login')
    expect((await runGuard(target('/projects'), 'editor', d.deps)).kind).toBe('allow')
    expect(checkAuth).toHaveBeenCalledTimes(2)
  })
})

describe('a link that connects but never answers (lie-fi)', () => {
  /** A check that answers only when the test says so. */
  function pendingCheck() {
    let settle: { resolve: (u: User) => void; reject: (e: unknown) => void } | null = null
    const checkAuth = vi.fn(
      () =>
        new Promise<User>((resolve, reject) => {
          settle = { resolve, reject }
        }),
    )
    return { checkAuth, settle: () => settle! }
  }

  it('with a valid stored token, goes on as offline once the patience runs out', async () => {
    const check = pendingCheck()
    const onLateUnauthorized = vi.fn()
    let token: string | null = 'tok'
    const onNoAnswer = vi.fn()
    const d = deps({
      checkAuth: check.checkAuth,
      answerWithinMs: 1000,
      wait: async () => undefined,
      onLateUnauthorized,
      onNoAnswer,
      session: () => ({ token, tokenExpiry: NOW + 60_000 }),
    })
    const result = await runGuard(target('/projects'), 'editor', d.deps)
    expect(result).toEqual({ kind: 'allow', user: null, offline: true })
    // The sync status hears that nothing answered (it says «Нет сети»).
    expect(onNoAnswer).toHaveBeenCalledTimes(1)
    // The late 401 still counts: the token goes and the app is told (the lock screen).
    d.onUnauthorized.mockImplementation(() => (token = null))
    check.settle().reject(new ApiError(401, 'unauthorized', 'Войдите'))
    await vi.waitFor(() => expect(onLateUnauthorized).toHaveBeenCalledTimes(1))
    expect(d.onUnauthorized).toHaveBeenCalledTimes(1)
  })

  it('with a stored user the screen does not wait for the check at all', async () => {
    const check = pendingCheck()
    const onLateUnauthorized = vi.fn()
    const onNoAnswer = vi.fn()
    let patienceOver: () => void = () => undefined
    let token: string | null = 'tok'
    const d = deps({
      checkAuth: check.checkAuth,
      answerWithinMs: 1000,
      wait: () => new Promise<void>((resolve) => (patienceOver = resolve)),
      onLateUnauthorized,
      onNoAnswer,
      paintBeforeAnswer: () => true,
      session: () => ({ token, tokenExpiry: NOW + 60_000 }),
    })
    // Allowed while the check is still on its way, not as offline: nothing has failed yet.
    expect(await runGuard(target('/projects'), 'editor', d.deps)).toEqual({
      kind: 'allow',
      user: null,
      offline: false,
    })
    expect(check.checkAuth).toHaveBeenCalledTimes(1)
    expect(onNoAnswer).not.toHaveBeenCalled()
    // Past the patience the status hears that nothing answered; a late 401 still counts.
    patienceOver()
    await vi.waitFor(() => expect(onNoAnswer).toHaveBeenCalledTimes(1))
    d.onUnauthorized.mockImplementation(() => (token = null))
    check.settle().reject(new ApiError(401, 'unauthorized', 'Войдите'))
    await vi.waitFor(() => expect(onLateUnauthorized).toHaveBeenCalledTimes(1))
    // Without a stored user the guard still waits for the answer (or the patience).
    const fresh = pendingCheck()
    const waiting = deps({
      checkAuth: fresh.checkAuth,
      answerWithinMs: 1000,
      wait: () => new Promise<void>(() => undefined),
      paintBeforeAnswer: () => false,
    })
    let settled = false
    const pending = runGuard(target('/projects'), 'editor', waiting.deps).then(
      () => (settled = true),
    )
    await Promise.resolve()
    expect(settled).toBe(false)
    fresh.settle().resolve(user)
    await pending
    expect(waiting.onUser).toHaveBeenCalledWith(user)
  })

  it('a late success stores the user, and nothing is told', async () => {
    const check = pendingCheck()
    const onLateUnauthorized = vi.fn()
    const d = deps({
      checkAuth: check.checkAuth,
      answerWithinMs: 1000,
      wait: async () => undefined,
      onLateUnauthorized,
    })
    await runGuard(target('/projects'), 'editor', d.deps)
    check.settle().resolve(user)
    await vi.waitFor(() => expect(d.onUser).toHaveBeenCalledWith(user))
    expect(onLateUnauthorized).not.toHaveBeenCalled()
    // The next navigation uses the answer without asking again.
    expect(await runGuard(target('/department'), 'editor', d.deps)).toMatchObject({ user })
  })

  it('a late 401 for a token that was replaced meanwhile (another person signed in) drops nothing', async () => {
    const check = pendingCheck()
    const onLateUnauthorized = vi.fn()
    let token = 'first-persons'
    const d = deps({
      checkAuth: check.checkAuth,
      answerWithinMs: 1000,
      wait: async () => undefined,
      onLateUnauthorized,
      session: () => ({ token, tokenExpiry: NOW + 60_000 }),
    })
    await runGuard(target('/projects'), 'editor', d.deps)
    token = 'second-persons'
    check.settle().reject(new ApiError(401, 'unauthorized', 'Войдите'))
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(d.onUnauthorized).not.toHaveBeenCalled()
    expect(onLateUnauthorized).not.toHaveBeenCalled()
  })

  it('a late success of the previous person’s check is not stored as the new person', async () => {
    const check = pendingCheck()
    let token = 'first-persons'
    const d = deps({
      checkAuth: check.checkAuth,
      answerWithinMs: 1000,
      wait: async () => undefined,
      session: () => ({ token, tokenExpiry: NOW + 60_000 }),
    })
    await runGuard(target('/projects'), 'editor', d.deps)
    token = 'second-persons'
    check.settle().resolve(user)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(d.onUser).not.toHaveBeenCalled()
    // Nor does the next navigation take it from the cache.
    expect(d.deps.cache.get('second-persons', NOW)).toBeNull()
  })

  it('without a valid stored token, waits for the check’s own outcome', async () => {
    const check = pendingCheck()
    const d = deps({
      checkAuth: check.checkAuth,
      answerWithinMs: 1000,
      wait: async () => undefined,
      session: () => ({ token: 'tok', tokenExpiry: NOW - 1 }),
    })
    let settled = false
    const pending = runGuard(target('/projects'), 'editor', d.deps).then((r) => {
      settled = true
      return r
    })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(settled).toBe(false)
    check.settle().reject(new NetworkError('timeout'))
    expect(await pending).toMatchObject({ kind: 'login' })
  })
})

describe('access rules', () => {
  it.each<[Role, AccessRule, boolean]>([
    ['admin', 'admin', true],
    ['admin', 'editor', true],
    ['editor', 'editor', true],
    ['editor', 'admin', false],
  ])('role %s with rule %s → %s', (role, rule, allowed) => {
    expect(hasAccess(role, rule)).toBe(allowed)
  })

  it('sends a user lacking the rule to not-authorized (role from the server)', async () => {
    const d = deps({ storedRole: 'admin' })
    // The check returns an editor; the admin rule is then not met.
    expect(await runGuard(target('/settings'), 'admin', d.deps)).toEqual({
      kind: 'not-authorized',
    })
    expect((await runGuard(target('/projects'), 'editor', d.deps)).kind).toBe('allow')
  })

  it('uses the stored role when offline', async () => {
    const offline = vi.fn(async (): Promise<User> => {
      throw new NetworkError('offline')
    })
    const editor = deps({ storedRole: 'editor', checkAuth: offline })
    expect((await runGuard(target('/x'), 'admin', editor.deps)).kind).toBe('not-authorized')
    const admin = deps({ storedRole: 'admin', checkAuth: offline })
    expect((await runGuard(target('/x'), 'admin', admin.deps)).kind).toBe('allow')
  })

  it('without a rule only the check matters', async () => {
    const d = deps({ storedRole: 'editor' })
    expect((await runGuard(target('/pages/maintenance'), null, d.deps)).kind).toBe('allow')
  })
})

describe('safeRedirectTarget', () => {
  it.each([
    ['/projects', '/projects'],
    ['/projects?page=2#top', '/projects?page=2#top'],
    ['/integrations/amo/5', '/integrations/amo/5'],
  ])('keeps same-origin path %s', (input, expected) => {
    expect(safeRedirectTarget(input)).toBe(expected)
  })

  it.each([
    '//evil.example/path',
    '/\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    'projects',
    '',
    '/\u0000x',
    '/a\nb',
    `/${'a'.repeat(3000)}`,
  ])('rejects %j', (input) => {
    expect(safeRedirectTarget(input)).toBe('/')
  })

  it('rejects non-strings and uses the given fallback', () => {
    expect(safeRedirectTarget(undefined)).toBe('/')
    expect(safeRedirectTarget(42, '/projects')).toBe('/projects')
    expect(safeRedirectTarget(['/x'])).toBe('/')
  })
})
