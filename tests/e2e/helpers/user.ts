import { randomUUID } from 'node:crypto'
import type { Page } from 'playwright-core'
import { pngImage } from '../../support/png.ts'
import { appUrl, expectShell, resetBrowserState, signIn } from './app.ts'

export interface FreshUser {
  name: string
  email: string
  password: string
  /** Bearer token for checking the server's state from node. */
  token: string
  /** The workspace the server creates with the account. */
  workspaceId: number
}

/** Calls the API as `token` from node (not through the browser); throws on an error status. */
export async function api<T = unknown>(
  token: string,
  path: string,
  body?: Record<string, unknown>,
): Promise<T> {
  const response = await fetch(appUrl(`/api/${path}`), {
    method: body ? 'POST' : 'GET',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  })
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

/** Registers a new account through the API, so a journey never shares data with another. */
export async function registerUser(): Promise<FreshUser> {
  const unique = randomUUID().slice(0, 8)
  const account = {
    name: `Проверка ${unique}`,
    email: `journey-${unique}@example.com`,
    password: `pass-${unique}-word`,
  }
  const response = await fetch(appUrl('/api/register'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(account),
  })
  if (!response.ok) throw new Error(`register: HTTP ${response.status} ${await response.text()}`)
  const { access_token: token } = (await response.json()) as { access_token: string }
  const workspaces = await api<{ id: number }[]>(token, 'workspace/list')
  const workspaceId = workspaces[0]?.id
  if (!workspaceId) throw new Error('the new account has no workspace')
  return { ...account, token, workspaceId }
}

/**
 * A new account signed in through the login page, with the previous user's session and local
 * mirror forgotten first (the service worker stays).
 */
export async function signInFreshUser(page: Page): Promise<FreshUser> {
  const user = await registerUser()
  await resetBrowserState(page)
  await signIn(page, user)
  await expectShell(page, 'Проекты')
  return user
}

/**
 * Adds a plain PNG background of `width` × `height` to a project through the API as `token`;
 * returns its id. `origin`: a server of the journey's own (default: the shared one).
 */
export async function addBackgroundApi(
  token: string,
  projectId: number,
  width: number,
  height: number,
  origin?: string,
): Promise<number> {
  const form = new FormData()
  form.append(
    'file',
    new Blob([new Uint8Array(pngImage(width, height))], { type: 'image/png' }),
    'bg.png',
  )
  form.append('project_id', String(projectId))
  const url = origin ? `${origin}/api/project/add_bg` : appUrl('/api/project/add_bg')
  const res = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  })
  if (!res.ok) throw new Error(`add_bg: ${res.status}`)
  return ((await res.json()) as { id: number }).id
}
