import { Button, createTheme, Menu, Modal, rem } from '@mantine/core'

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
  // Touch targets of at least 44 px (a finger on a tablet): the md buttons of forms and dialogs,
  // a dialog's close button and menu items; the Mantine-free controls follow (ui/controls.module.css).
  components: {
    Button: Button.extend({
      defaultProps: { radius: 'md' },
      vars: (_theme, props) =>
        props.size === 'md' ? { root: { '--button-height': rem(44) } } : { root: {} },
    }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { size: 'xl' } } }),
    Menu: Menu.extend({ styles: { item: { minHeight: rem(44) } } }),
    TextInput: { defaultProps: { radius: 'md' } },
    PasswordInput: { defaultProps: { radius: 'md' } },
  },
})
