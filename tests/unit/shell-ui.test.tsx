import { msg } from '@lingui/core/macro'
import { I18nProvider } from '@lingui/react'
import { MantineProvider } from '@mantine/core'
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router'
import { act, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import { setLocale, storedLocale } from '../../src/features/locale/locale.ts'
import {
  isChunkLoadError,
  NavigationTimeoutError,
  RouteErrorScreen,
} from '../../src/ui/error-screens.tsx'
import { NavigationChrome } from '../../src/ui/navigation-chrome.tsx'
import { installBrowserStubs } from './helpers/render-app.tsx'

function inProviders(node: React.ReactNode) {
  installBrowserStubs()
  return render(
    <MantineProvider>
      <I18nProvider i18n={i18n}>{node}</I18nProvider>
    </MantineProvider>,
  )
}

afterEach(async () => {
  document.body.innerHTML = ''
  await act(() => setLocale('ru'))
  localStorage.clear()
})

describe('language switch', () => {
  it('remembers the locale and sets <html lang>', async () => {
    expect(storedLocale()).toBe('ru')
    await act(() => setLocale('en'))
    expect(localStorage.getItem('locale')).toBe('en')
    expect(document.documentElement.lang).toBe('en')
    expect(storedLocale()).toBe('en')
    expect(i18n._(msg`Проекты`)).toBe('Projects')
    await act(() => setLocale('ru'))
    expect(document.documentElement.lang).toBe('ru')
    expect(i18n._(msg`Проекты`)).toBe('Проекты')
  })

  it('the directory screens bring their own words in both languages', async () => {
    expect(i18n._(msg`Отделений пока нет`)).toBe('Отделений пока нет')
    await import('../../src/features/directory/departments-page.tsx')
    await act(() => setLocale('en'))
    expect(i18n._(msg`Отделений пока нет`)).toBe('No departments yet')
    expect(i18n._(msg`Проекты`)).toBe('Projects')
  })

  it('a feature opened while English is on shows its English words at once', async () => {
    await act(() => setLocale('en'))
    await import('../../src/features/integrations/integration-messages.ts')
    expect(i18n._(msg`Выключена`)).toBe('Off')
    await act(() => setLocale('ru'))
    expect(i18n._(msg`Выключена`)).toBe('Выключена')
  })

  it('falls back to Russian for an unknown stored value', () => {
    localStorage.setItem('locale', 'de')
    expect(storedLocale()).toBe('ru')
  })
})

describe('error screens', () => {
  it('recognises chunk load failures', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /a.js')),
    ).toBe(true)
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isChunkLoadError(new NavigationTimeoutError('slow'))).toBe(true)
    expect(isChunkLoadError(new Error('x is undefined'))).toBe(false)
    expect(isChunkLoadError('string')).toBe(false)
  })

  it('offers «Повторить» for a chunk failure', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    inProviders(
      <RouteErrorScreen error={new TypeError('Failed to fetch dynamically imported module')} />,
    )
    expect(screen.getByText('Не удалось загрузить раздел')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeInTheDocument()
  })

  it('never shows the error text or stack of other failures', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const error = new Error('secret internal detail')
    error.stack = 'Error: secret internal detail\n    at render (app.js:1:1)'
    const { container } = inProviders(<RouteErrorScreen error={error} />)
    expect(screen.getByText('Что-то пошло не так')).toBeInTheDocument()
    expect(container.textContent).not.toContain('secret')
    expect(container.textContent).not.toContain('app.js')
  })
})

describe('navigation chrome', () => {
  it('reports a navigation pending longer than the timeout as a failed chunk', async () => {
    installBrowserStubs()
    const root = createRootRoute({
      component: () => (
        <NavigationChrome timeoutMs={50}>
          <Outlet />
        </NavigationChrome>
      ),
    })
    const home = createRoute({ getParentRoute: () => root, path: '/', component: () => null })
    const slow = createRoute({
      getParentRoute: () => root,
      path: '/slow',
      beforeLoad: () => new Promise<void>(() => undefined),
      component: () => null,
    })
    const router = createRouter({
      routeTree: root.addChildren([home, slow]),
      history: createMemoryHistory({ initialEntries: ['/'] }),
    })
    await router.load()
    inProviders(<RouterProvider router={router} />)
    expect(screen.getByTestId('loading-overlay')).not.toBeVisible()
    act(() => void router.history.push('/slow'))
    expect(await screen.findByTestId('loading-overlay')).toBeVisible()
    expect(await screen.findByRole('button', { name: 'Повторить' })).toBeInTheDocument()
  })
})
