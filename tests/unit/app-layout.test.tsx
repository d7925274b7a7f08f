import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { AppLayout } from '../../src/ui/app-layout.tsx'
import { renderInApp } from './helpers/render-app.tsx'

afterEach(() => {
  document.body.innerHTML = ''
})

function Shell() {
  return (
    <AppLayout>
      <p>Страница</p>
    </AppLayout>
  )
}

describe('main layout without Mantine', () => {
  it('names the sections and marks the open one', async () => {
    await renderInApp(() => <Shell />, '/department/7', { mantine: false })
    const nav = await screen.findByRole('navigation', { name: 'Разделы' })
    const current = nav.querySelector('a[aria-current="page"]')
    expect(current?.textContent).toBe('Отделения')
    expect(screen.getByRole('main')).toHaveTextContent('Страница')
  })

  it('opens the drawer with the burger, focuses the open section, and closes on Escape', async () => {
    await renderInApp(() => <Shell />, '/projects', { mantine: false })
    const user = userEvent.setup()
    const burger = await screen.findByRole('button', { name: 'Меню разделов' })
    expect(burger).toHaveAttribute('aria-expanded', 'false')
    await user.click(burger)
    expect(burger).toHaveAttribute('aria-expanded', 'true')
    expect(burger).toHaveAccessibleName('Меню разделов')
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Проекты'))
    // Tab stays in the drawer: past the last section it comes back to the burger, then the first.
    screen.getByRole('link', { name: 'Специалисты' }).focus()
    await user.tab()
    expect(burger).toHaveFocus()
    await user.tab()
    expect(document.activeElement?.textContent).toBe('Проекты')
    await user.tab({ shift: true })
    expect(burger).toHaveFocus()
    await user.tab({ shift: true })
    expect(document.activeElement?.textContent).toBe('Специалисты')
    await user.keyboard('{Escape}')
    expect(burger).toHaveAttribute('aria-expanded', 'false')
    expect(burger).toHaveFocus()
  })

  it('closes the drawer when a section is chosen', async () => {
    const { router } = await renderInApp(() => <Shell />, '/projects', { mantine: false })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Меню разделов' }))
    await user.click(screen.getByRole('link', { name: 'Локации' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/locations'))
    expect(screen.getByRole('button', { name: 'Меню разделов' })).toHaveAttribute(
      'aria-expanded',
      'false',
    )
  })
})
