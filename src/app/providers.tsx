import { I18nProvider } from '@lingui/react'
import type { ReactNode } from 'react'
import { ConfirmHost } from '../ui/confirm.tsx'
import { AppErrorBoundary } from '../ui/error-screens.tsx'
import { NotificationHost } from '../ui/notification-host.tsx'
import { i18n } from './i18n.ts'

/**
 * Lingui, the error boundary, and the hosts of notifications (bottom right) and confirm dialogs.
 * No MantineProvider here: Mantine loads lazily inside MantineScope islands (src/ui/mantine-scope.tsx),
 * so the shell and the projects list paint without it, and without its components' CSS
 * (docs/performance.md).
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nProvider i18n={i18n}>
      <NotificationHost />
      <ConfirmHost />
      <AppErrorBoundary>{children}</AppErrorBoundary>
    </I18nProvider>
  )
}
