import { act, render, screen, waitFor } from '@testing-library/react'
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Providers } from '../../src/app/providers.tsx'
import { createAppRouter } from '../../src/app/router.ts'
import { setupSession } from '../../src/app/setup.ts'
import { resetAuthCheckCache } from '../../src/features/auth/route-guard.ts'
import { readSession } from '../../src/features/auth/session.ts'
import { installBrowserStubs } from './helpers/render-app.tsx'

const user = { id: 5, name: 'Ольга', email: 'olga@example.ru', role: 'editor' }

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })
}

function storeToken(expiry: number) {
  localStorage.setItem('access_token', 'tok')
  localStorage.setItem('tokenExpiry', String(expiry))
  localStorage.setItem('loggedIn', 'true')
}

async function open(path: string) {
  installBrowserStubs()
  const router = createAppRouter({ history: createMemoryHistory({ initialEntries: [path] }) })
  render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  )
  await act(() => router.load())
  return router
}

const fetchMock = vi.fn<typeof fetch>()

beforeEach(() => {
  setupSession()
  localStorage.clear()
  resetAuthCheckCache()
  fetchMock.mockReset()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  vi.unstubAllGlobals()
  document.body.innerHTML = ''
})

describe('app routes', () => {
  it('redirects / to /projects and, on 401, to login with the wanted path', async () => {
    fetchMock.mockResolvedValue(json(401, { error: { code: 'unauthorized', message: 'Нет' } }))
    const router = await open('/')
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/login'))
    expect(router.state.location.search).toEqual({ to: '/projects' })
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/check_auth')
    expect(await screen.findByRole('button', { name: 'Войти' })).toBeInTheDocument()
  })

  it('keeps the search of the wanted path in ?to=', async () => {
    fetchMock.mockResolvedValue(json(401, { error: { code: 'unauthorized', message: 'Нет' } }))
    const router = await open('/integrations/amo?page=2')
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/login'))
    expect(router.state.location.search).toEqual({ to: '/integrations/amo?page=2' })
  })

  it('sends unknown paths to the 404 page without an auth check', async () => {
    const router = await open('/no/such/page')
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/error-404'))
    expect(await screen.findByText('Страница не найдена')).toBeInTheDocument()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('opens a product page on 200, with the bearer token, storing the user', async () => {
    storeToken(Date.now() + 60_000)
    fetchMock.mockResolvedValue(json(200, { user }))
    const router = await open('/analytics')
    await waitFor(() => expect(router.state.location.pathname).toBe('/analytics'))
    expect(await screen.findByRole('heading', { name: 'Аналитика' })).toBeInTheDocument()
    const init = fetchMock.mock.calls[0]?.[1]
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok')
    expect(readSession().user).toEqual(user)
    expect(screen.getByRole('link', { name: 'Аналитика' })).toHaveAttribute('aria-current', 'page')
    expect(screen.getByTestId('loading-overlay')).not.toBeVisible()
  })

  it('works offline with a stored token before its expiry', async () => {
    storeToken(Date.now() + 60_000)
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
    const router = await open('/projects')
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects'))
    expect(await screen.findByRole('heading', { name: 'Проекты' })).toBeInTheDocument()
  })

  it('sends to login offline when the token has expired', async () => {
    storeToken(Date.now() - 1)
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
    const router = await open('/projects')
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/login'))
  })

  it('opens the sign-in pages without a check', async () => {
    const router = await open('/pages/register')
    expect(await screen.findByRole('button', { name: 'Создать аккаунт' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/pages/register')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('scrolls back to the top after each navigation', async () => {
    storeToken(Date.now() + 60_000)
    fetchMock.mockImplementation(async () => json(200, { user }))
    const router = await open('/projects')
    await screen.findByRole('heading', { name: 'Проекты' })
    const scrollTo = vi.fn()
    window.scrollTo = scrollTo as typeof window.scrollTo
    await act(() => router.navigate({ to: '/locations' }))
    expect(await screen.findByRole('heading', { name: 'Локации' })).toBeInTheDocument()
    expect(scrollTo).toHaveBeenCalledWith(0, 0)
    // The successful check is remembered: the second page needed no new check.
    const checks = fetchMock.mock.calls.filter(([url]) => String(url).includes('/api/check_auth'))
    expect(checks).toHaveLength(1)
    expect(screen.getByTestId('loading-overlay')).not.toBeVisible()
  })
})
