import '@mantine/core/styles.css'
import '@mantine/notifications/styles.css'
import '@mantine/dates/styles.css'
import 'dayjs/locale/ru'
import { I18nProvider, useLingui } from '@lingui/react'
import { createTheme, MantineProvider } from '@mantine/core'
import { DatesProvider } from '@mantine/dates'
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

function LocalizedDates({ children }: { children: ReactNode }) {
  const { i18n: active } = useLingui()
  return (
    <DatesProvider settings={{ locale: active.locale === 'en' ? 'en' : 'ru' }}>
      {children}
    </DatesProvider>
  )
}

/** Mantine (theme, notifications bottom right, dates in the UI language), Lingui, error boundary. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <I18nProvider i18n={i18n}>
        <LocalizedDates>
          <NotificationHost />
          <ConfirmHost />
          <AppErrorBoundary>{children}</AppErrorBoundary>
        </LocalizedDates>
      </I18nProvider>
    </MantineProvider>
  )
}
