import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { configureApi } from '../../src/api/client.ts'
import { i18n } from '../../src/app/i18n.ts'
import { AMO_OAUTH_OUTCOMES, type IntegrationState } from '../../src/domain/appeal.ts'
import { validateAmoOauthSearch } from '../../src/features/integrations/amo-oauth-search.ts'
import { AmoOauthNotice } from '../../src/features/integrations/amo-oauth.tsx'
import { IntegrationStatePanel } from '../../src/features/integrations/integration-state.tsx'
import { renderInApp } from './helpers/render-app.tsx'

// An integration's page (docs/requests.md, "The integrations' pages"): its state, «Проверить»,
// and what amoCRM's redirect back said.

beforeEach(() => act(() => i18n.activate('ru')))
afterEach(() => {
  vi.unstubAllGlobals()
  document.body.innerHTML = ''
})

const state = (extra: Partial<IntegrationState> = {}): IntegrationState => ({
  kind: 'amo',
  id: 5,
  state: 'connected',
  message: 'amoCRM отвечает',
  last_delivered_at: '2030-04-20T09:15:02.113Z',
  delivered: 12,
  queued: 1,
  failed: 2,
  ...extra,
})

/** The API as the panel meets it: the states, and «Проверить»'s answer. */
function serve(states: IntegrationState[], check = { ok: true, message: '' }) {
  const calls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const path = new URL(input).pathname
      calls.push(path)
      const body = path === '/api/integration/state' ? states : check
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      })
    }),
  )
  configureApi({ baseUrl: 'http://app.test', getToken: () => 'tok' })
  return calls
}

describe('the integration’s state', () => {
  it('says it is connected, when it last delivered and its counts', async () => {
    serve([state({ id: 4 }), state()])
    await renderInApp(() => <IntegrationStatePanel kind="amo" id={5} workspaceId={1} />)
    expect(await screen.findByTestId('integration-state-badge')).toHaveTextContent('Подключено')
    expect(screen.getByTestId('integration-counts')).toHaveTextContent(
      'Доставлено: 12 · В очереди: 1 · Не доставлено: 2',
    )
    expect(screen.getByTestId('integration-last-delivery')).toHaveTextContent(
      /Последняя заявка доставлена .*2030/,
    )
  })

  it('names the error and offers to connect amoCRM when it needs it', async () => {
    serve([state({ state: 'error', message: 'amoCRM отклонила заявку: нет воронки' })])
    const { unmount } = await renderInApp(() => (
      <IntegrationStatePanel kind="amo" id={5} workspaceId={1} />
    ))
    expect(await screen.findByTestId('integration-state-badge')).toHaveTextContent(
      'Ошибка: amoCRM отклонила заявку: нет воронки',
    )
    expect(screen.queryByRole('button', { name: 'Подключить amoCRM' })).toBeNull()
    unmount()
    serve([state({ state: 'not_connected', last_delivered_at: null })])
    await renderInApp(() => <IntegrationStatePanel kind="amo" id={5} workspaceId={1} />)
    expect(await screen.findByTestId('integration-state-badge')).toHaveTextContent(
      'Требуется подключение',
    )
    expect(screen.getByRole('button', { name: 'Подключить amoCRM' })).toBeInTheDocument()
    expect(screen.getByText('Заявок в amoCRM ещё не доставлялось')).toBeInTheDocument()
  })

  it('«Проверить» shows what the CRM said, in Russian', async () => {
    const message = 'Битрикс24 не принимает вебхук: проверьте его адрес: 401'
    const calls = serve([state({ kind: 'bitrix', id: 6 })], { ok: false, message })
    await renderInApp(() => <IntegrationStatePanel kind="bitrix" id={6} workspaceId={1} />)
    await screen.findByTestId('integration-state-badge')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Проверить' }))
    expect(await screen.findByTestId('integration-check')).toHaveTextContent(message)
    expect(calls).toContain('/api/bitrix/check')
    // The state is asked again after the check.
    await waitFor(() => expect(calls.filter((p) => p === '/api/integration/state')).toHaveLength(2))
  })
})

describe('amoCRM’s redirect back', () => {
  it('takes only the outcomes it knows', () => {
    expect(validateAmoOauthSearch({ amo_oauth: 'connected' })).toEqual({ amo_oauth: 'connected' })
    expect(validateAmoOauthSearch({ amo_oauth: '<script>' })).toEqual({})
    expect(validateAmoOauthSearch({})).toEqual({})
  })

  it('says each outcome in Russian', async () => {
    const said = new Set<string>()
    for (const outcome of AMO_OAUTH_OUTCOMES) {
      const { unmount } = await renderInApp(() => <AmoOauthNotice outcome={outcome} />)
      const notice = await screen.findByTestId('amo-oauth-notice')
      expect(notice.textContent, outcome).toMatch(/[а-я]/)
      expect(notice.textContent).toContain(
        outcome === 'connected' ? 'amoCRM подключена' : 'amoCRM не подключена',
      )
      said.add(notice.textContent ?? '')
      unmount()
    }
    // Each outcome has words of its own.
    expect(said.size).toBe(AMO_OAUTH_OUTCOMES.length)
  })
})
