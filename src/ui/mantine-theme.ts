import { createTheme } from '@mantine/core'

/**
 * The Mantine theme of every screen that uses Mantine. Its CSS variables that differ from
 * Mantine's defaults are also written statically in theme.css, so the screens drawn without
 * Mantine (the shell and the projects list) look the same before any Mantine code has loaded.
 */
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
