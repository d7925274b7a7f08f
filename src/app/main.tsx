import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { configureApi } from '../api/client.ts'
import { getValidToken } from '../features/auth/session.ts'
import { installSignOutConfirm } from '../features/auth/sign-out.ts'
import { restoreLocale } from './i18n.ts'
import { Providers } from './providers.tsx'
import { createAppRouter } from './router.ts'

configureApi({ getToken: () => getValidToken() })
installSignOutConfirm()

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
}

void start()
