// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AuthResponse } from '../../src/domain/user.ts'
import {
  clearSession,
  dropToken,
  getRole,
  getValidToken,
  hasUnsyncedChanges,
  onSessionChange,
  parseExpiry,
  readSession,
  SESSION_KEYS,
  setRole,
  setSignOutConfirm,
  setUnsyncedChangesHook,
  signOut,
  startSession,
  subscribe,
  updateUser,
} from '../../src/features/auth/session.ts'

// Revoking a signed-out token has tests of its own (revoke.ts); here it only has to be asked for.
// signOut loads it without waiting (a dynamic import): each test waits for that load to end.
const { flushRevocations } = vi.hoisted(() => ({ flushRevocations: vi.fn(async () => undefined) }))
vi.mock('../../src/features/auth/revoke.ts', () => ({ flushRevocations }))

const auth: AuthResponse = {
  access_token: 'abc.def',
  expires_at: '2030-01-01T00:00:00.000Z',
  user: { id: 3, name: 'Иван', email: 'ivan@example.ru', role: 'editor' },
}

beforeEach(() => {
  localStorage.clear()
  setUnsyncedChangesHook(async () => 0)
})
afterEach(async () => {
  setSignOutConfirm(async () => false)
  await vi.dynamicImportSettled()
})

describe('storage keys', () => {
  it('uses exactly the keys of docs/app-shell.md "Session (src/features/auth/session.ts)"', () => {
    expect(SESSION_KEYS).toEqual({
      token: 'access_token',
      role: 'userRole',
      user: 'userInfo',
      loggedIn: 'loggedIn',
      expiry: 'tokenExpiry',
    })
  })

  it('stores a login answer under those keys, expiry as ms epoch', () => {
    startSession(auth)
    expect(localStorage.getItem('access_token')).toBe('abc.def')
    expect(localStorage.getItem('tokenExpiry')).toBe(String(Date.parse(auth.expires_at)))
    expect(JSON.parse(localStorage.getItem('userInfo') ?? 'null')).toEqual(auth.user)
    expect(localStorage.getItem('userRole')).toBe('editor')
    expect(localStorage.getItem('loggedIn')).toBe('true')
    expect(readSession()).toEqual({
      token: 'abc.def',
      tokenExpiry: Date.parse(auth.expires_at),
      user: auth.user,
      role: 'editor',
      loggedIn: true,
    })
  })

  it('reads an ISO expiry as well as ms', () => {
    expect(parseExpiry('1767225600000')).toBe(1767225600000)
    expect(parseExpiry('2026-01-01T00:00:00Z')).toBe(Date.parse('2026-01-01T00:00:00Z'))
    expect(parseExpiry('soon')).toBeNull()
    expect(parseExpiry(null)).toBeNull()
  })

  it('ignores a corrupted userInfo', () => {
    localStorage.setItem('userInfo', '{not json')
    expect(readSession().user).toBeNull()
    localStorage.setItem('userInfo', JSON.stringify({ id: 'x' }))
    expect(readSession().user).toBeNull()
  })
})

describe('token lifetime', () => {
  it('hands out the token only before its expiry', () => {
    startSession(auth)
    const expiry = Date.parse(auth.expires_at)
    expect(getValidToken(expiry - 1)).toBe('abc.def')
    expect(getValidToken(expiry)).toBeNull()
    // Expiry passing does not erase anything: the lock screen still knows the user.
    expect(readSession().user?.email).toBe('ivan@example.ru')
  })

  it('dropToken forgets the token but keeps who the user is', () => {
    startSession(auth)
    dropToken()
    const s = readSession()
    expect(s.token).toBeNull()
    expect(s.tokenExpiry).toBeNull()
    expect(s.loggedIn).toBe(false)
    expect(s.user).toEqual(auth.user)
    expect(s.role).toBe('editor')
  })
})

describe('role', () => {
  it('defaults to admin and stores what is set', () => {
    expect(getRole()).toBe('admin')
    setRole('editor')
    expect(localStorage.getItem('userRole')).toBe('editor')
    expect(getRole()).toBe('editor')
  })

  it('ignores an unknown stored role', () => {
    localStorage.setItem('userRole', 'superuser')
    expect(getRole()).toBe('admin')
  })

  it('follows the server role on updateUser', () => {
    updateUser({ ...auth.user, role: 'admin', name: 'Иван Петров' })
    expect(getRole()).toBe('admin')
    expect(readSession().user?.name).toBe('Иван Петров')
  })
})

describe('subscribe', () => {
  it('tells listeners about sign-in, changes and sign-out, until unsubscribed', () => {
    const seen: (string | null)[] = []
    const stop = subscribe((s) => seen.push(s.token))
    startSession(auth)
    updateUser({ ...auth.user, name: 'Новое имя' })
    clearSession()
    stop()
    startSession(auth)
    expect(seen).toEqual(['abc.def', 'abc.def', null])
  })

  it('onSessionChange is the same subscription', () => {
    const listener = vi.fn()
    const stop = onSessionChange(listener)
    startSession(auth)
    stop()
    expect(listener).toHaveBeenCalledWith(expect.objectContaining({ token: 'abc.def' }))
  })

  it('reacts to another tab changing the session', () => {
    const listener = vi.fn()
    const stop = subscribe(listener)
    window.dispatchEvent(new StorageEvent('storage', { key: 'access_token' }))
    window.dispatchEvent(new StorageEvent('storage', { key: 'unrelated' }))
    stop()
    expect(listener).toHaveBeenCalledTimes(1)
  })
})

describe('signOut', () => {
  it('clears every key when nothing is waiting', async () => {
    startSession(auth)
    const confirm = vi.fn(async () => true)
    expect(await signOut({ confirm })).toBe(true)
    expect(confirm).not.toHaveBeenCalled()
    for (const key of Object.values(SESSION_KEYS)) expect(localStorage.getItem(key)).toBeNull()
    // The server is asked to forget the token too.
    await vi.dynamicImportSettled()
    expect(flushRevocations).toHaveBeenCalled()
  })

  it('asks first when changes are unsynced, and keeps everything on cancel', async () => {
    startSession(auth)
    setUnsyncedChangesHook(async () => 3)
    expect(await hasUnsyncedChanges()).toBe(3)
    const cancel = vi.fn(async () => false)
    expect(await signOut({ confirm: cancel })).toBe(false)
    expect(cancel).toHaveBeenCalledWith(3)
    expect(localStorage.getItem('access_token')).toBe('abc.def')
    expect(await signOut({ confirm: async () => true })).toBe(true)
    expect(localStorage.getItem('access_token')).toBeNull()
  })

  it('uses the registered dialog, and refuses when none is registered', async () => {
    startSession(auth)
    setUnsyncedChangesHook(async () => 1)
    expect(await signOut()).toBe(false)
    expect(localStorage.getItem('access_token')).toBe('abc.def')
    const dialog = vi.fn(async () => true)
    setSignOutConfirm(dialog)
    expect(await signOut()).toBe(true)
    expect(dialog).toHaveBeenCalledWith(1)
  })

  it('treats a failing hook as nothing pending', async () => {
    setUnsyncedChangesHook(async () => {
      throw new Error('db closed')
    })
    expect(await hasUnsyncedChanges()).toBe(0)
  })
})
