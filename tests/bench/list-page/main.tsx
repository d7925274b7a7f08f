/// <reference types="vite/client" />
/**
 * The specialists screen on its own, for tests/bench/list-bench.ts: seeds the mirror with `?n=`
 * specialists, renders the real SpecialistsPage (live query answered by the sync worker, search,
 * sort, virtual rows) and reports when the first rows are on screen.
 */
import '@mantine/core/styles.css'
import { I18nProvider } from '@lingui/react'
import { MantineProvider } from '@mantine/core'
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router'
import { createRoot } from 'react-dom/client'
import { i18n } from '../../../src/app/i18n.ts'
import { CURRENT_WORKSPACE } from '../../../src/data/sync-state.ts'
import { MirrorDb } from '../../../src/data/db.ts'
import type { Specialist } from '../../../src/domain/directory.ts'
import { SpecialistsPage } from '../../../src/features/directory/specialists-page.tsx'

declare global {
  interface Window {
    bench: { rendering: number; firstRows: number | null; rows: number }
  }
}

const POSITIONS = ['Терапевт', 'Хирург', 'Стоматолог', 'Кардиолог', 'Невролог']

async function seed(n: number): Promise<void> {
  // The page's own database: the screen reads it through the sync worker, as in the product.
  const db = new MirrorDb()
  await Promise.all(db.tables.map((table) => table.clear()))
  const departments = Array.from({ length: 20 }, (_, i) => ({
    id: i + 1,
    workspace_id: 1,
    name: `Отделение ${i + 1}`,
    description: '',
  }))
  const specialists: Specialist[] = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    workspace_id: 1,
    name: `Специалист ${String((i * 7919) % n).padStart(5, '0')}`,
    position: POSITIONS[i % POSITIONS.length] ?? '',
    department_id: (i % 20) + 1,
    location_id: null,
    phone: '+7 900 000-00-00',
    email: '',
    photo_url: '',
    description: '',
    enabled: i % 9 !== 0,
  }))
  await db.transaction('rw', [db.workspaces, db.department, db.specialist, db.meta], async () => {
    await db.workspaces.put({ id: 1, name: 'Клиника' })
    await db.meta.put({ key: CURRENT_WORKSPACE, value: 1 })
    await db.department.bulkPut(departments)
    await db.specialist.bulkPut(specialists)
  })
}

async function start() {
  const n = Number(new URLSearchParams(location.search).get('n') ?? '100')
  await seed(n)
  const rootRoute = createRootRoute()
  const page = createRoute({
    getParentRoute: () => rootRoute,
    path: '$',
    component: SpecialistsPage,
  })
  const router = createRouter({
    routeTree: rootRoute.addChildren([page]),
    history: createMemoryHistory({ initialEntries: ['/specialist'] }),
  })
  await router.load()
  window.bench = { rendering: performance.now(), firstRows: null, rows: 0 }
  const observer = new MutationObserver(() => {
    const rows = document.querySelectorAll('[role="listitem"]').length
    if (rows > 0 && window.bench.firstRows === null) {
      window.bench.firstRows = performance.now()
      window.bench.rows = rows
      observer.disconnect()
    }
  })
  observer.observe(document.body, { childList: true, subtree: true })
  createRoot(document.getElementById('root')!).render(
    <MantineProvider>
      <I18nProvider i18n={i18n}>
        <RouterProvider router={router as never} />
      </I18nProvider>
    </MantineProvider>,
  )
}

void start()
