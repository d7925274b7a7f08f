import { defineConfig } from '@lingui/cli'
import { formatter } from '@lingui/format-po'

export default defineConfig({
  sourceLocale: 'ru',
  locales: ['ru', 'en'],
  fallbackLocales: { default: 'ru' },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: [
        '**/node_modules/**',
        '**/*.test.*',
        '<rootDir>/src/features/editor/**',
        '<rootDir>/src/features/directory/**',
        '<rootDir>/src/features/integrations/**',
        '<rootDir>/src/features/publishing/dialog/**',
        '<rootDir>/src/features/appeals/**',
      ],
    },
    // The editor's words load with the editor route, not with the first page (bundle budget).
    {
      path: '<rootDir>/src/locales/{locale}/editor',
      include: ['<rootDir>/src/features/editor'],
      exclude: ['**/node_modules/**', '**/*.test.*'],
    },
    // So do the directory's and the integrations' words with their screens.
    {
      path: '<rootDir>/src/locales/{locale}/directory',
      include: ['<rootDir>/src/features/directory'],
      exclude: ['**/node_modules/**', '**/*.test.*'],
    },
    {
      path: '<rootDir>/src/locales/{locale}/integrations',
      include: ['<rootDir>/src/features/integrations'],
      exclude: ['**/node_modules/**', '**/*.test.*'],
    },
    // The publish dialog's words load with the dialog.
    {
      path: '<rootDir>/src/locales/{locale}/publishing',
      include: ['<rootDir>/src/features/publishing/dialog'],
      exclude: ['**/node_modules/**', '**/*.test.*'],
    },
    // «Обращения»'s words load with its screen.
    {
      path: '<rootDir>/src/locales/{locale}/appeals',
      include: ['<rootDir>/src/features/appeals'],
      exclude: ['**/node_modules/**', '**/*.test.*'],
    },
  ],
  format: formatter({ lineNumbers: false }),
})
