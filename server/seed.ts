import * as v from 'valibot'
import { BLOCK_SCHEMAS, type Block, type BlockType } from '../src/domain/block.ts'
import type { Database, Queryable } from './db/database.ts'
import { hashPassword } from './services/auth.ts'
import { insertBackground, insertBlock, insertProject } from './storage/projects.ts'
import { insertRecord } from './storage/records.ts'
import { countUsers, insertUser } from './storage/users.ts'
import { insertWorkspace } from './storage/workspaces.ts'
import type { UploadStorage } from './uploads/storage.ts'

export const DEMO_ACCOUNTS = [
  { name: 'Демо-администратор', email: 'demo@promo.local', password: 'demo12345', role: 'admin' },
  { name: 'Демо-редактор', email: 'editor@promo.local', password: 'demo12345', role: 'editor' },
] as const

export interface SeedResult {
  accounts: readonly { email: string; password: string; role: string }[]
  workspaceId: number
}

function backgroundSvg(width: number, height: number, from: string, to: string): string {
  const r = Math.min(width, height)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="${width}" height="${height}" fill="url(#g)"/>
<circle cx="${width * 0.85}" cy="${height * 0.2}" r="${r * 0.25}" fill="#ffffff" fill-opacity="0.12"/>
<circle cx="${width * 0.1}" cy="${height * 0.85}" r="${r * 0.35}" fill="#ffffff" fill-opacity="0.08"/>
<path d="M${width * 0.5 - r * 0.04} ${height * 0.5 - r * 0.12}h${r * 0.08}v${r * 0.08}h${r * 0.08}v${r * 0.08}h-${r * 0.08}v${r * 0.08}h-${r * 0.08}v-${r * 0.08}h-${r * 0.08}v-${r * 0.08}h${r * 0.08}z" fill="#ffffff" fill-opacity="0.06"/>
</svg>
`
}

type SeedBlock = Block extends infer B ? (B extends Block ? Omit<B, 'bg_id' | 'id'> : never) : never

async function addBlocks(tx: Queryable, bgId: number, blocks: readonly SeedBlock[]) {
  for (const block of blocks) {
    // Checked against the shared schema, so the demo content is what a client could have saved.
    const parsed = v.parse(BLOCK_SCHEMAS[block.type as BlockType], { ...block, bg_id: bgId })
    const { id: _id, bg_id: _bg, type, ...data } = parsed
    await insertBlock(tx, bgId, type, data)
  }
}

const geometry = { x: 0, y: 0, zindex: 1, rotation: 0 }

/**
 * Fills an empty database with a demo admin and editor, the workspace «Клиника «Здоровье»» with its
 * directory and integrations, and one project of each type. Does nothing when users exist.
 */
export async function seedDemo(db: Database, uploads: UploadStorage): Promise<SeedResult | null> {
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((a) => hashPassword(a.password)))
  const images = {
    landing1: 'seed-landing-spring.svg',
    landing2: 'seed-landing-doctors.svg',
    story1: 'seed-story-kids.svg',
    story2: 'seed-story-booking.svg',
  }
  await uploads.save(images.landing1, Buffer.from(backgroundSvg(1600, 900, '#1e6fd9', '#38b2ac')))
  await uploads.save(images.landing2, Buffer.from(backgroundSvg(1600, 900, '#2f855a', '#81e6d9')))
  await uploads.save(images.story1, Buffer.from(backgroundSvg(1080, 1920, '#d53f8c', '#f6ad55')))
  await uploads.save(images.story2, Buffer.from(backgroundSvg(1080, 1920, '#6b46c1', '#4299e1')))

  return db.transaction(async (tx) => {
    // Several instances may start at once against one PostgreSQL: only one seeds.
    await tx.query('SELECT pg_advisory_xact_lock(72650002)')
    if ((await countUsers(tx)) > 0) return null
    const users: { id: number; role: string }[] = []
    for (const [i, account] of DEMO_ACCOUNTS.entries()) {
      const user = await insertUser(tx, { ...account, passwordHash: hashes[i]! })
      users.push({ id: user!.id, role: account.role })
    }
    // The demo admin is the workspace's admin, the demo editor its editor (docs/API.md, "Members").
    const ws = await insertWorkspace(
      tx,
      'Клиника «Здоровье»',
      users.find((u) => u.role === 'admin')!.id,
      users.filter((u) => u.role === 'editor').map((u) => u.id),
    )

    const therapy = await insertRecord(tx, 'department', ws.id, {
      name: 'Терапия',
      description: 'Приём терапевта, диспансеризация и профилактические осмотры.',
    })
    const dentistry = await insertRecord(tx, 'department', ws.id, {
      name: 'Стоматология',
      description: 'Лечение, гигиена и протезирование зубов.',
    })
    const pediatrics = await insertRecord(tx, 'department', ws.id, {
      name: 'Педиатрия',
      description: 'Детский приём с рождения до 18 лет.',
    })
    const centre = await insertRecord(tx, 'location', ws.id, {
      name: 'Клиника на Ленина',
      address: 'г. Москва, ул. Ленина, д. 10',
      phone: '+7 (495) 123-45-67',
    })
    const branch = await insertRecord(tx, 'location', ws.id, {
      name: 'Филиал на Садовой',
      address: 'г. Москва, ул. Садовая, д. 25',
      phone: '+7 (495) 765-43-21',
    })
    const specialists = [
      ['Иванова Анна Сергеевна', 'Врач-терапевт', therapy.id, centre.id, true],
      ['Петров Игорь Николаевич', 'Стоматолог-ортопед', dentistry.id, branch.id, true],
      ['Смирнова Ольга Викторовна', 'Педиатр', pediatrics.id, centre.id, true],
      ['Кузнецов Дмитрий Алексеевич', 'Стоматолог-гигиенист', dentistry.id, branch.id, false],
    ] as const
    const specialistIds: number[] = []
    for (const [name, position, department, location, enabled] of specialists) {
      const row = await insertRecord(tx, 'specialist', ws.id, {
        name,
        position,
        department_id: department,
        location_id: location,
        phone: '+7 (495) 123-45-67',
        email: '',
        photo_url: '',
        description: `${position}, опыт работы более 10 лет.`,
        enabled,
      })
      specialistIds.push(row.id)
    }
    await insertRecord(tx, 'amo', ws.id, {
      name: 'amoCRM клиники',
      subdomain: 'zdorovie-clinic',
      client_id: '3f1c2a9e-7b4d-4e21-9c55-1a2b3c4d5e6f',
      client_secret: 'demo-secret-7Hq2LmX9pR4sT8vW',
      redirect_uri: 'https://zdorovie.example/amo/callback',
      enabled: true,
    })
    await insertRecord(tx, 'bitrix', ws.id, {
      name: 'Битрикс24 клиники',
      portal_url: 'https://zdorovie.bitrix24.ru',
      webhook_url: 'https://zdorovie.bitrix24.ru/rest/1/k3j9x2m7q8w4e5r6/',
      enabled: true,
    })

    const landing = await insertProject(tx, ws.id, 'Весенний чек-ап со скидкой', 1)
    const l1 = await insertBackground(tx, {
      project_id: landing.id,
      image_url: `/uploads/${images.landing1}`,
      width: 1600,
      height: 900,
    })
    const l2 = await insertBackground(tx, {
      project_id: landing.id,
      image_url: `/uploads/${images.landing2}`,
      width: 1600,
      height: 900,
    })
    const font = 'Inter'
    await addBlocks(tx, l1.id, [
      {
        ...geometry,
        type: 'text',
        y: -28,
        zindex: 2,
        width: 70,
        fontSize: 7,
        font,
        align: 'center',
        color: '#ffffff',
        text: 'Весенний чек-ап: всё о здоровье за один день',
        background: 'transparent',
        name: 'Заголовок',
      },
      {
        ...geometry,
        type: 'text',
        y: -12,
        width: 60,
        fontSize: 3.5,
        font,
        align: 'center',
        color: '#e6fffa',
        text: 'Анализы, УЗИ и консультация терапевта — со скидкой 20% до 31 мая',
        background: 'transparent',
        name: 'Подзаголовок',
      },
      {
        ...geometry,
        type: 'button',
        y: 8,
        zindex: 3,
        width: 24,
        height: 10,
        btn_type: 'target',
        btn_type_value: 'price',
        name: 'Кнопка «Записаться»',
        border_width: 0,
        border_color: '#ffffff',
        fontSize: 3,
        font,
        align: 'center',
        color: '#1e6fd9',
        background: '#ffffff',
        text: 'Записаться',
      },
      {
        ...geometry,
        type: 'price',
        x: -40,
        y: 30,
        width: 30,
        color: '#ffffff',
        text: '4 900 ₽',
        text_price: 4900,
        button_text: 'Выбрать',
      },
      {
        ...geometry,
        type: 'gift',
        x: 40,
        y: 30,
        width: 30,
        color: '#f6e05e',
        text: 'Консультация диетолога в подарок',
        name: 'Подарок',
        button_url: 'https://zdorovie.example/gift',
        button_hook_url: '',
      },
    ])
    await addBlocks(tx, l2.id, [
      {
        ...geometry,
        type: 'text',
        y: -30,
        width: 70,
        fontSize: 5,
        font,
        align: 'center',
        color: '#ffffff',
        text: 'Наши врачи',
        background: 'transparent',
        name: 'Заголовок раздела',
      },
      {
        ...geometry,
        type: 'video',
        y: 10,
        width: 50,
        height: 50,
        scaleX: 1,
        scaleY: 1,
        video_url: 'https://zdorovie.example/video/about.mp4',
        video_src: '',
        name: 'Видео о клинике',
      },
    ])

    const story = await insertProject(tx, ws.id, 'Сторис: запись к педиатру', 2)
    const s1 = await insertBackground(tx, {
      project_id: story.id,
      image_url: `/uploads/${images.story1}`,
      width: 1080,
      height: 1920,
    })
    const s2 = await insertBackground(tx, {
      project_id: story.id,
      image_url: `/uploads/${images.story2}`,
      width: 1080,
      height: 1920,
    })
    await addBlocks(tx, s1.id, [
      {
        ...geometry,
        type: 'text',
        y: -100,
        width: 80,
        fontSize: 12,
        font,
        align: 'center',
        color: '#ffffff',
        text: 'Здоровье малыша — без очередей',
        background: 'transparent',
        name: 'Заголовок',
      },
      {
        ...geometry,
        type: 'image',
        y: 20,
        width: 60,
        height: 30,
        scaleX: 1,
        scaleY: 1,
        name: 'Иллюстрация',
        image_url: `/uploads/${images.landing2}`,
      },
    ])
    await addBlocks(tx, s2.id, [
      {
        ...geometry,
        type: 'subscribe',
        y: 0,
        width: 80,
        specialist_id: specialistIds[2] ?? null,
        date: '2026-12-01',
        action: 'Записаться на приём',
      },
      {
        ...geometry,
        type: 'button',
        y: 110,
        width: 70,
        height: 6,
        btn_type: 'link',
        btn_type_value: 'https://zdorovie.example/pediatr',
        name: 'Подробнее',
        border_width: 1,
        border_color: '#ffffff',
        fontSize: 7,
        font,
        align: 'center',
        color: '#ffffff',
        background: 'transparent',
        text: 'Подробнее о приёме',
      },
    ])

    return {
      accounts: DEMO_ACCOUNTS.map(({ email, password, role }) => ({ email, password, role })),
      workspaceId: ws.id,
    }
  })
}
