// The page's first stylesheet, before any module's own (src/ui/global-styles.ts).
import '../ui/global-styles.ts'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { firstScreenDrawn } from '../ui/first-screen.tsx'
import { restoreLocale } from './i18n.ts'
import { Providers } from './providers.tsx'
import { createAppRouter } from './router.ts'
import { setupSession } from './setup.ts'
import { setupSync } from './sync.ts'

setupSession()
setupSync()

const router = createAppRouter()

async function start() {
  await restoreLocale()
  const root = document.getElementById('root')
  if (!root) return
  createRoot(root).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  )
  // Once the first screen is drawn, and loaded then: none may delay it or share the link with it
  // (docs/performance.md).
  void firstScreenDrawn()
    .then(() => import('./after-first-render.ts'))
    .then(({ afterFirstRender }) => afterFirstRender())
}

void start()
