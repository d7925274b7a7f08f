import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, testServer, type TestServer, type TestUser } from './helpers.ts'

let s: TestServer
let u: TestUser

beforeAll(async () => {
  s = await testServer()
  u = await s.signUp()
})
afterAll(() => s.close())

type Row = Record<string, unknown> & { id: number }

const samples = {
  department: {
    add: { name: 'Терапия', description: 'Взрослый приём' },
    update: { description: 'Приём взрослых и подростков' },
  },
  location: {
    add: { name: 'Клиника на Ленина', address: 'ул. Ленина, 1', phone: '+7 (495) 000-00-00' },
    update: { phone: '+7 999 111-22-33' },
  },
  specialist: {
    add: {
      name: 'Иванова Анна',
      position: 'Терапевт',
      department_id: null,
      location_id: null,
      phone: '',
      email: 'anna@clinic.ru',
      photo_url: '',
      description: '',
    },
    update: { position: 'Старший терапевт' },
  },
  amo: {
    add: {
      name: 'amoCRM',
      subdomain: 'Clinic-One',
      client_id: 'client-1',
      client_secret: 'super-secret-value-1234',
      redirect_uri: 'https://clinic.example/cb',
    },
    update: { name: 'amoCRM (основной)' },
  },
  bitrix: {
    add: {
      name: 'Битрикс24',
      portal_url: 'https://clinic.bitrix24.ru',
      webhook_url: 'https://clinic.bitrix24.ru/rest/7/abcdefgh12345678/',
    },
    update: { name: 'Битрикс24 (основной)' },
  },
} as const

const toggles = { department: false, location: false, specialist: true, amo: true, bitrix: true }

describe.each(Object.keys(samples) as (keyof typeof samples)[])('%s', (kind) => {
  it('add, list, get, update, delete', async () => {
    const added = await s.call('POST', `/api/${kind}/add`, {
      token: u.token,
      body: { workspace_id: u.workspaceId, ...samples[kind].add },
    })
    expect(added.status).toBe(200)
    const record = await json<Row>(added)
    expect(record).toMatchObject({ id: expect.any(Number), workspace_id: u.workspaceId })
    expect(record.name).toBe(samples[kind].add.name)

    const list = await json<Row[]>(
      await s.call('GET', `/api/${kind}/list`, {
        token: u.token,
        query: { workspace_id: u.workspaceId },
      }),
    )
    expect(list).toEqual([record])
    const got = await s.call('GET', `/api/${kind}/get`, {
      token: u.token,
      query: { id: record.id },
    })
    expect(await json(got)).toEqual(record)

    const updated = await json<Row>(
      await s.call('POST', `/api/${kind}/update`, {
        token: u.token,
        body: { id: record.id, ...samples[kind].update },
      }),
    )
    expect(updated).toEqual({ ...record, ...samples[kind].update, version: 2 })

    if (toggles[kind]) {
      const off = await s.call('POST', `/api/${kind}/disable`, {
        token: u.token,
        body: { id: record.id },
      })
      expect(await json(off)).toEqual({ ...updated, enabled: false, version: 3 })
      const on = await s.call('POST', `/api/${kind}/able`, {
        token: u.token,
        body: { id: record.id },
      })
      expect(await json(on)).toEqual({ ...updated, enabled: true, version: 4 })
    } else {
      const res = await s.call('POST', `/api/${kind}/disable`, {
        token: u.token,
        body: { id: record.id },
      })
      expect(res.status).toBe(404)
    }

    const del = await s.call('POST', `/api/${kind}/delete`, {
      token: u.token,
      body: { id: record.id },
    })
    expect(await json(del)).toEqual({ id: record.id, deleted: true })
    const gone = await s.call('GET', `/api/${kind}/get`, {
      token: u.token,
      query: { id: record.id },
    })
    expect(gone.status).toBe(404)
  })
})

describe('integration secrets', () => {
  it('amo client_secret is masked everywhere and kept on update', async () => {
    const added = await json<Row>(
      await s.call('POST', '/api/amo/add', {
        token: u.token,
        body: { workspace_id: u.workspaceId, ...samples.amo.add },
      }),
    )
    expect(added.client_secret).toBe('••••1234')
    expect(added.subdomain).toBe('clinic-one')
    const list = await json<Row[]>(
      await s.call('GET', '/api/amo/list', {
        token: u.token,
        query: { workspace_id: u.workspaceId },
      }),
    )
    expect(list.find((r) => r.id === added.id)?.client_secret).toBe('••••1234')

    // Sent back masked: kept.
    await s.call('POST', '/api/amo/update', {
      token: u.token,
      body: { ...added, name: 'Переименовано' },
    })
    // Left out: kept.
    await s.call('POST', '/api/amo/update', {
      token: u.token,
      body: { id: added.id, name: 'Ещё раз' },
    })
    let got = await json<Row>(
      await s.call('GET', '/api/amo/get', { token: u.token, query: { id: added.id } }),
    )
    expect(got).toMatchObject({ name: 'Ещё раз', client_secret: '••••1234' })

    // A new value replaces it.
    await s.call('POST', '/api/amo/update', {
      token: u.token,
      body: { id: added.id, client_secret: 'another-secret-9876' },
    })
    got = await json<Row>(
      await s.call('GET', '/api/amo/get', { token: u.token, query: { id: added.id } }),
    )
    expect(got.client_secret).toBe('••••9876')
  })

  it('bitrix webhook token is masked and kept when sent back masked', async () => {
    const added = await json<Row>(
      await s.call('POST', '/api/bitrix/add', {
        token: u.token,
        body: { workspace_id: u.workspaceId, ...samples.bitrix.add },
      }),
    )
    expect(added.webhook_url).toBe('https://clinic.bitrix24.ru/rest/7/••••5678/')
    expect(JSON.stringify(added)).not.toContain('abcdefgh12345678')
    const res = await s.call('POST', '/api/bitrix/update', {
      token: u.token,
      body: { id: added.id, webhook_url: added.webhook_url, name: 'Новое' },
    })
    expect(res.status).toBe(200)
    await s.call('POST', '/api/bitrix/update', {
      token: u.token,
      body: { id: added.id, webhook_url: 'https://clinic.bitrix24.ru/rest/7/zzzzyyyy00001111/' },
    })
    const got = await json<Row>(
      await s.call('GET', '/api/bitrix/get', { token: u.token, query: { id: added.id } }),
    )
    expect(got).toMatchObject({
      name: 'Новое',
      webhook_url: 'https://clinic.bitrix24.ru/rest/7/••••1111/',
    })
  })

  it('validates integration fields in Russian', async () => {
    const res = await s.call('POST', '/api/bitrix/add', {
      token: u.token,
      body: {
        workspace_id: u.workspaceId,
        name: 'x',
        portal_url: 'http://evil.example',
        webhook_url: 5,
      },
    })
    expect(res.status).toBe(422)
    const body = await json<{ error: { fields: Record<string, string> } }>(res)
    expect(Object.keys(body.error.fields).sort()).toEqual(['portal_url', 'webhook_url'])
  })
})

describe('specialist references', () => {
  it('department and location must be in the same workspace', async () => {
    const dept = await json<Row>(
      await s.call('POST', '/api/department/add', {
        token: u.token,
        body: { workspace_id: u.workspaceId, name: 'Хирургия', description: '' },
      }),
    )
    const other = await json<Row>(
      await s.call('POST', '/api/workspace/add', { token: u.token, body: { name: 'Второе' } }),
    )
    const foreignLoc = await json<Row>(
      await s.call('POST', '/api/location/add', {
        token: u.token,
        body: { workspace_id: other.id, name: 'Чужой адрес', address: '', phone: '' },
      }),
    )
    const bad = await s.call('POST', '/api/specialist/add', {
      token: u.token,
      body: {
        ...samples.specialist.add,
        workspace_id: u.workspaceId,
        department_id: dept.id,
        location_id: foreignLoc.id,
      },
    })
    expect(bad.status).toBe(422)
    const body = await json<{ error: { fields: Record<string, string> } }>(bad)
    expect(body.error.fields).toEqual({ location_id: 'Не найдено в этом пространстве' })

    const ok = await json<Row>(
      await s.call('POST', '/api/specialist/add', {
        token: u.token,
        body: { ...samples.specialist.add, workspace_id: u.workspaceId, department_id: dept.id },
      }),
    )
    expect(ok).toMatchObject({ department_id: dept.id, location_id: null, enabled: true })
    const moved = await s.call('POST', '/api/specialist/update', {
      token: u.token,
      body: { id: ok.id, location_id: foreignLoc.id },
    })
    expect(moved.status).toBe(422)
  })
})
