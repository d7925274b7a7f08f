import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { restoreLocale } from './i18n.ts'
import { watchDeviceStorage } from './device-storage.ts'
import { watchInstallHint } from './install-hint.ts'
import { Providers } from './providers.tsx'
import { createAppRouter } from './router.ts'
import { registerServiceWorker } from './service-worker.ts'
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
  // After the first render: none may delay the first paint.
  registerServiceWorker()
  watchDeviceStorage()
  watchInstallHint()
}

void start()
