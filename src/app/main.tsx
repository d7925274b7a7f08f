import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
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
  // After the first render, and loaded then: none may delay the first paint, and the list pages'
  // first load carries none of them (docs/app-shell.md, Bundle).
  void import('./after-first-render.ts').then(({ afterFirstRender }) => afterFirstRender())
}

void start()
