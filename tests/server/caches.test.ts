import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, type ApiApp } from '../../server/app.ts'
import { sessionCacheFor } from '../../server/services/session-cache.ts'
import {
  addMember,
  json,
  secondInstance,
  testServer,
  type TestServer,
  type TestUser,
} from './helpers.ts'

/**
 * What the server keeps in memory between requests — a token's user, a workspace's lists — is never
 * served once the database says otherwise, whichever instance changed it (server/README.md,
 * "What each instance keeps in memory"). A second app instance runs over the same database: on PGlite it is handed the same
 * database object (one process), on PostgreSQL it opens its own pool on the same schema.
 */
let s: TestServer
let other: ApiApp
const postgres = Boolean(process.env.DATABASE_URL)

beforeAll(async () => {
  s = await testServer()
  other = await secondInstance(s)
})

afterAll(async () => {
  await other.close()
  await s.close()
})

const onOther = (method: string, path: string, token: string, body?: unknown) =>
  Promise.resolve(
    other.request(path, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )

/**
 * Runs `run` with the queries sent through an instance's database object (those `keep` picks)
 * noted in `sent` as they go, and puts the database object back as it was afterwards.
 */
async function seeingQueries(
  instance: ApiApp,
  run: (sent: string[]) => Promise<void>,
  keep: (text: string) => boolean = () => true,
): Promise<string[]> {
  const { db } = (await instance.ready()).services
  const sent: string[] = []
  const query = db.query
  db.query = (text, params) => {
    if (keep(text)) sent.push(text)
    return query(text, params)
  }
  try {
    await run(sent)
  } finally {
    db.query = query
  }
  return sent
}

/** Resolves once the other instance has applied a session change it heard of (PostgreSQL). */
async function otherHeard(): Promise<() => Promise<unknown>> {
  if (!postgres) return () => Promise.resolve()
  const cache = sessionCacheFor((await other.ready()).services.db, 0)
  const heard = once(cache, 'heard')
  return () => heard
}

describe('a signed-in user kept in memory', () => {
  it('is forgotten on every instance when the token signs out', async () => {
    const user = await s.signUp()
    // Both instances have answered for the token, so both keep its user.
    expect((await s.call('GET', '/api/check_auth', { token: user.token })).status).toBe(200)
    expect((await onOther('GET', '/api/check_auth', user.token)).status).toBe(200)
    const heard = await otherHeard()
    expect((await s.call('POST', '/api/logout', { token: user.token })).status).toBe(200)
    await heard()
    expect((await onOther('GET', '/api/check_auth', user.token)).status).toBe(401)
    expect((await s.call('GET', '/api/check_auth', { token: user.token })).status).toBe(401)
  })

  it('shows the new name on every instance after a profile update', async () => {
    const user = await s.signUp('Старое имя')
    expect((await onOther('GET', '/api/check_auth', user.token)).status).toBe(200)
    const heard = await otherHeard()
    const res = await s.call('POST', '/api/profile/update', {
      token: user.token,
      body: { name: 'Новое имя' },
    })
    expect(res.status).toBe(200)
    await heard()
    const check = await json<{ user: { name: string } }>(
      await onOther('GET', '/api/check_auth', user.token),
    )
    expect(check.user.name).toBe('Новое имя')
  })

  it('is forgotten on every instance when a password reset signs the user out', async () => {
    let link = ''
    const app = createApp({
      dataDir: 'memory',
      db: (await s.app.ready()).services.db,
      onResetLink: (l) => {
        link = l
      },
    })
    try {
      const user = await s.signUp()
      expect((await onOther('GET', '/api/check_auth', user.token)).status).toBe(200)
      await app.request('/api/forgot_password', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: user.email }),
      })
      await (await app.ready()).services.background.idle()
      const token = new URL(link, 'http://x').searchParams.get('token')!
      const heard = await otherHeard()
      const reset = await app.request('/api/reset_password', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token, password: 'new-password-123' }),
      })
      expect(reset.status).toBe(200)
      await heard()
      expect((await onOther('GET', '/api/check_auth', user.token)).status).toBe(401)
    } finally {
      await app.close()
    }
  })
})

describe('a list kept in memory', () => {
  let user: TestUser
  const list = async (via: 'this' | 'other', kind = 'department') => {
    const res =
      via === 'this'
        ? await s.call('GET', `/api/${kind}/list`, {
            token: user.token,
            query: { workspace_id: user.workspaceId },
          })
        : await onOther('GET', `/api/${kind}/list?workspace_id=${user.workspaceId}`, user.token)
    expect(res.status).toBe(200)
    return json<Record<string, unknown>[]>(res)
  }

  beforeAll(async () => {
    user = await s.signUp()
  })

  it('shows what another instance added, changed and deleted', async () => {
    const added = await json<{ id: number }>(
      await onOther('POST', '/api/department/add', user.token, {
        workspace_id: user.workspaceId,
        name: 'Хирургия',
        description: '',
      }),
    )
    expect((await list('this')).map((d) => d.name)).toEqual(['Хирургия'])
    await onOther('POST', '/api/department/update', user.token, { id: added.id, name: 'Терапия' })
    expect((await list('this')).map((d) => d.name)).toEqual(['Терапия'])
    await onOther('POST', '/api/department/delete', user.token, { id: added.id })
    expect(await list('this')).toEqual([])
  })

  it('shows rows written by the database itself (a cascade, plain SQL)', async () => {
    const dep = await json<{ id: number }>(
      await s.call('POST', '/api/department/add', {
        token: user.token,
        body: { workspace_id: user.workspaceId, name: 'Кардиология', description: '' },
      }),
    )
    const spec = await json<{ id: number }>(
      await s.call('POST', '/api/specialist/add', {
        token: user.token,
        body: { workspace_id: user.workspaceId, name: 'Иванова', department_id: dep.id },
      }),
    )
    expect((await list('this', 'specialist'))[0]!.department_id).toBe(dep.id)
    // Deleting the department sets the specialist's department_id to null in the database.
    await onOther('POST', '/api/department/delete', user.token, { id: dep.id })
    expect((await list('this', 'specialist'))[0]).toMatchObject({
      id: spec.id,
      department_id: null,
    })
    const { db } = (await s.app.ready()).services
    await db.query('UPDATE specialists SET name = $2 WHERE id = $1', [spec.id, 'Петрова'])
    expect((await list('this', 'specialist'))[0]!.name).toBe('Петрова')
  })

  it('follows its own writes, and never skips what another instance wrote in between', async () => {
    const add = (name: string) =>
      s.call('POST', '/api/department/add', {
        token: user.token,
        body: { workspace_id: user.workspaceId, name, description: '' },
      })
    const before = (await list('this')).length
    const mine = await json<{ id: number }>(await add('Неврология'))
    expect((await list('this')).map((d) => d.name).slice(before)).toEqual(['Неврология'])
    // Another instance writes, then this one: the list kept here is two versions behind.
    await onOther('POST', '/api/department/add', user.token, {
      workspace_id: user.workspaceId,
      name: 'Офтальмология',
      description: '',
    })
    await s.call('POST', '/api/department/update', {
      token: user.token,
      body: { id: mine.id, name: 'Неврология и сон' },
    })
    expect((await list('this')).map((d) => d.name).slice(before)).toEqual([
      'Неврология и сон',
      'Офтальмология',
    ])
    await add('Урология')
    expect(await list('this')).toEqual(await list('other'))
  })

  it('is not shown to someone who is not a member of the workspace', async () => {
    const stranger = await s.signUp()
    await list('this')
    const res = await s.call('GET', '/api/department/list', {
      token: stranger.token,
      query: { workspace_id: user.workspaceId },
    })
    expect(res.status).toBe(404)
  })

  it('answers a repeat without asking the database while nothing was written', async () => {
    const { db } = (await s.app.ready()).services
    await seeingQueries(s.app, async (sent) => {
      const first = await list('this')
      const before = sent.length
      expect(await list('this')).toEqual(first)
      expect(await list('this')).toEqual(first)
      // PostgreSQL: what other processes write is heard from the listening connection.
      expect(sent.length).toBe(before)
      // Plain SQL counts as a write: the next list asks again and shows it.
      await db.query(`UPDATE departments SET name = 'Переименовано' WHERE workspace_id = $1`, [
        user.workspaceId,
      ])
      expect((await list('this')).every((d) => d.name === 'Переименовано')).toBe(true)
      expect(sent.length).toBeGreaterThan(before + 1)
    })
  })

  it('answers the list after a write through this instance from memory, with the write in it', async () => {
    await seeingQueries(s.app, async (sent) => {
      await list('this')
      await list('this')
      const before = sent.length
      const res = await s.call('POST', '/api/department/add', {
        token: user.token,
        body: { workspace_id: user.workspaceId, name: 'Гастроэнтерология', description: '' },
      })
      expect(res.status).toBe(200)
      const writes = sent.length - before
      expect((await list('this')).map((d) => d.name)).toContain('Гастроэнтерология')
      // The write's own statement, and nothing for the list.
      expect(sent.length - before).toBe(writes)
      expect(await list('this')).toEqual(await list('other'))
    })
  })

  it('reads only the rows another instance wrote, in one query, and the whole list after a delete', async () => {
    const viaOther = (path: string, body: unknown) =>
      onOther('POST', path, user.token, body).then((res) => json<{ id: number }>(res))
    await seeingQueries(s.app, async (sent) => {
      const a = await viaOther('/api/department/add', {
        workspace_id: user.workspaceId,
        name: 'Педиатрия',
        description: '',
      })
      await list('this')
      await viaOther('/api/department/update', { id: a.id, name: 'Педиатрия и неонатология' })
      await viaOther('/api/department/add', {
        workspace_id: user.workspaceId,
        name: 'Дерматология',
        description: 'Кожа',
      })
      let before = sent.length
      const mine = await list('this')
      expect(sent.length - before).toBe(1)
      expect(sent[sent.length - 1]).toContain('row_version >')
      expect(mine).toEqual(await list('other'))
      // A row gone is not among the rows written since: the count tells, and the list is read whole.
      await onOther('POST', '/api/department/delete', user.token, { id: a.id })
      before = sent.length
      const after = await list('this')
      expect(sent.length - before).toBe(2)
      expect(after.map((d) => d.id)).not.toContain(a.id)
      expect(after).toEqual(await list('other'))
    })
  })

  it('shows a write through one instance in the very next list on the other', async () => {
    const writer = await s.signUp()
    const names = (res: Response) =>
      json<{ name: string }[]>(res).then((rows) => rows.map((r) => r.name))
    const listOther = async () => {
      const res = await onOther(
        'GET',
        `/api/department/list?workspace_id=${writer.workspaceId}`,
        writer.token,
      )
      expect(res.status).toBe(200)
      return names(res)
    }
    await seeingQueries(other, async (sent) => {
      let id = 0
      for (let i = 0; i < 20; i++) {
        // The other instance keeps the list and has answered a repeat of it from memory.
        const seen = await listOther()
        const before = sent.length
        expect(await listOther()).toEqual(seen)
        expect(sent.length).toBe(before)
        // A write through this instance, answered; at once the same client asks the other one.
        const res =
          i % 2 === 0
            ? await s.call('POST', '/api/department/add', {
                token: writer.token,
                body: { workspace_id: writer.workspaceId, name: `Отделение ${i}`, description: '' },
              })
            : await s.call('POST', '/api/department/update', {
                token: writer.token,
                body: { id, name: `Отделение ${i}` },
              })
        expect(res.status).toBe(200)
        id = (await json<{ id: number }>(res)).id
        expect(await listOther()).toContain(`Отделение ${i}`)
      }
    })
  })

  it('trusts nothing it kept once its listening connection is lost, until it listens again', async () => {
    const writer = await s.signUp()
    const { db, changes } = (await other.ready()).services
    const names = async () => {
      const res = await onOther(
        'GET',
        `/api/department/list?workspace_id=${writer.workspaceId}`,
        writer.token,
      )
      expect(res.status).toBe(200)
      return (await json<{ name: string }[]>(res)).map((d) => d.name)
    }
    const add = (name: string) =>
      s.call('POST', '/api/department/add', {
        token: writer.token,
        body: { workspace_id: writer.workspaceId, name, description: '' },
      })
    // The list's own queries (the sessions' cache, which also lost its connection, asks too).
    await seeingQueries(
      other,
      async (sent) => {
        // Listening from the first list on (the instance starts listening at its first list).
        await changes.start()
        await names()
        let before = sent.length
        expect(await names()).toEqual([])
        expect(sent.length).toBe(before)
        if (postgres) {
          // The database ends the other instance's listening connections (its sessions' one too).
          const lost = new Promise<void>((resolve) => changes.onLost(resolve))
          const { rows } = await db.query<{ schema: string }>('SELECT current_schema() AS schema')
          await db.query(
            'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
            [`listen ${rows[0]!.schema}`],
          )
          await lost
        }
        await add('Пульмонология')
        // Listening again: what was kept from before is not trusted, the write made meanwhile was
        // never announced to it, and the list is asked of the database.
        await changes.start()
        before = sent.length
        expect(await names()).toEqual(['Пульмонология'])
        expect(sent.length).toBeGreaterThan(before)
        // Confirmed again: answered from memory, and a write is heard again.
        before = sent.length
        expect(await names()).toEqual(['Пульмонология'])
        expect(sent.length).toBe(before)
        await add('Хирургия')
        expect(await names()).toEqual(['Пульмонология', 'Хирургия'])
      },
      (text) => text.includes('record_versions'),
    )
  })

  it('is not answered to a member removed through the other instance, on their next call', async () => {
    const admin = await s.signUp()
    const editor = await s.signUp()
    await addMember(s, admin.token, admin.workspaceId, editor)
    const path = `/api/department/list?workspace_id=${admin.workspaceId}`
    // Kept on the other instance for the editor, and answered again from memory.
    expect((await onOther('GET', path, editor.token)).status).toBe(200)
    expect((await onOther('GET', path, editor.token)).status).toBe(200)
    const removed = await s.call('POST', '/api/workspace/member/remove', {
      token: admin.token,
      body: { workspace_id: admin.workspaceId, user_id: editor.id },
    })
    expect(removed.status).toBe(200)
    expect((await onOther('GET', path, editor.token)).status).toBe(404)
    expect((await onOther('GET', path, admin.token)).status).toBe(200)
  })
})

describe('a record answered from a kept list', () => {
  beforeAll(async () => {
    // PostgreSQL: what a list confirms is trusted from memory once this instance listens.
    await (await s.app.ready()).services.changes.start()
  })

  const get = (user: TestUser, kind: string, id: number) =>
    s.call('GET', `/api/${kind}/get`, { token: user.token, query: { id } })
  const listOn = (user: TestUser, kind: string) =>
    s.call('GET', `/api/${kind}/list`, {
      token: user.token,
      query: { workspace_id: user.workspaceId },
    })

  it('is the same answer as from the database, without asking it, secrets masked', async () => {
    const user = await s.signUp()
    const amo = await json<{ id: number; client_secret: string }>(
      await s.call('POST', '/api/amo/add', {
        token: user.token,
        body: {
          workspace_id: user.workspaceId,
          name: 'amoCRM',
          subdomain: 'clinic-two',
          client_id: 'client-2',
          client_secret: 'super-secret-value-5678',
          redirect_uri: 'https://clinic.example/cb',
        },
      }),
    )
    const fromDatabase = await (
      await onOther('GET', `/api/amo/get?id=${amo.id}`, user.token)
    ).text()
    expect(JSON.parse(fromDatabase)).toMatchObject({ id: amo.id, client_secret: '••••5678' })
    expect((await listOn(user, 'amo')).status).toBe(200)
    let fromMemory = ''
    const sent = await seeingQueries(s.app, async () => {
      const res = await get(user, 'amo', amo.id)
      expect(res.status).toBe(200)
      fromMemory = await res.text()
    })
    // Nothing read the record (PostgreSQL may still look the token up, after an announcement).
    expect(sent.filter((text) => text.includes('amo_integrations'))).toEqual([])
    expect(fromMemory).toBe(fromDatabase)
  })

  it('shows what another instance wrote since, and is not found once deleted there', async () => {
    const user = await s.signUp()
    const dep = await json<{ id: number }>(
      await s.call('POST', '/api/department/add', {
        token: user.token,
        body: { workspace_id: user.workspaceId, name: 'Хирургия', description: '' },
      }),
    )
    expect((await listOn(user, 'department')).status).toBe(200)
    expect(await json<{ name: string }>(await get(user, 'department', dep.id))).toMatchObject({
      name: 'Хирургия',
    })
    const updated = await onOther('POST', '/api/department/update', user.token, {
      id: dep.id,
      name: 'Хирургия и травматология',
    })
    expect(updated.status).toBe(200)
    expect(await json<{ name: string }>(await get(user, 'department', dep.id))).toMatchObject({
      name: 'Хирургия и травматология',
    })
    expect(
      (await onOther('POST', '/api/department/delete', user.token, { id: dep.id })).status,
    ).toBe(200)
    expect((await get(user, 'department', dep.id)).status).toBe(404)
  })

  it('is not answered to a member removed through the other instance, nor to someone else', async () => {
    const admin = await s.signUp()
    const editor = await s.signUp()
    const stranger = await s.signUp()
    await addMember(s, admin.token, admin.workspaceId, editor)
    const dep = await json<{ id: number }>(
      await s.call('POST', '/api/department/add', {
        token: admin.token,
        body: { workspace_id: admin.workspaceId, name: 'Педиатрия', description: '' },
      }),
    )
    const asEditor = { ...editor, workspaceId: admin.workspaceId }
    expect((await listOn(asEditor, 'department')).status).toBe(200)
    expect((await get(editor, 'department', dep.id)).status).toBe(200)
    expect((await get(stranger, 'department', dep.id)).status).toBe(404)
    const removed = await onOther('POST', '/api/workspace/member/remove', admin.token, {
      workspace_id: admin.workspaceId,
      user_id: editor.id,
    })
    expect(removed.status).toBe(200)
    expect((await get(editor, 'department', dep.id)).status).toBe(404)
    expect((await get(admin, 'department', dep.id)).status).toBe(200)
  })
})
