import { createTheme, Menu, Modal, rem, type MantineThemeOverride } from '@mantine/core'

/**
 * The Mantine theme of every screen that uses Mantine. Its CSS variables that differ from
 * Mantine's defaults are also written statically in theme.css, so the screens drawn without
 * Mantine (the shell and the projects list) look the same before any Mantine code has loaded.
 */
/** Dimmed text (hints, details) dark enough for 4.5:1 on white; Mantine's gray-6 gives 3.3:1. */
export const DIMMED_TEXT = '#697077'

export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 8: white text on a filled button, and coloured text on white, reach 4.5:1 (shade 6 gave
  // 3.6:1 for blue and 3.3:1 for red). theme.css repeats the variables this changes.
  primaryShade: { light: 8, dark: 5 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
  // Touch targets of at least 44 px (a finger on a tablet): a dialog's close button and menu
  // items; buttons and inputs are the app's own (ui/controls.module.css, docs/app-shell.md "UI kit").
  components: {
    Menu: Menu.extend({ styles: { item: { minHeight: rem(44) } } }),
    // The inputs Mantine still draws stand beside the app's own, which are 44 px high. Named, not
    // imported, so the theme does not pull these widgets into every island.
    Select: { styles: { input: { minHeight: rem(44) } } },
    ColorInput: { styles: { input: { minHeight: rem(44) } } },
  },
})

/**
 * The theme with the words it puts on controls, in the current language: a dialog's ✕ is a
 * 44 px target named «Закрыть» (Mantine leaves it without a name).
 */
export function localizedTheme(closeLabel: string): MantineThemeOverride {
  return {
    ...theme,
    components: {
      ...theme.components,
      Modal: Modal.extend({
        defaultProps: { closeButtonProps: { size: 'xl', 'aria-label': closeLabel } },
      }),
    },
  }
}
