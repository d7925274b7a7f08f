import '@mantine/core/styles.css'
import '@mantine/notifications/styles.css'
import { I18nProvider } from '@lingui/react'
import { createTheme, MantineProvider } from '@mantine/core'
import type { ReactNode } from 'react'
import { ConfirmHost } from '../ui/confirm.tsx'
import { AppErrorBoundary } from '../ui/error-screens.tsx'
import { NotificationHost } from '../ui/notification-host.tsx'
import { i18n } from './i18n.ts'

export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 6, dark: 5 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { radius: 'md' } },
    TextInput: { defaultProps: { radius: 'md' } },
    PasswordInput: { defaultProps: { radius: 'md' } },
  },
})

/** Mantine (theme, notifications bottom right), Lingui, error boundary. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <I18nProvider i18n={i18n}>
        <NotificationHost />
        <ConfirmHost />
        <AppErrorBoundary>{children}</AppErrorBoundary>
      </I18nProvider>
    </MantineProvider>
  )
}
