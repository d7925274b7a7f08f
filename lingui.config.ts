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
      exclude: ['**/node_modules/**', '**/*.test.*', '<rootDir>/src/features/editor/**'],
    },
    // The editor's words load with the editor route, not with the first page (bundle budget).
    {
      path: '<rootDir>/src/locales/{locale}/editor',
      include: ['<rootDir>/src/features/editor'],
      exclude: ['**/node_modules/**', '**/*.test.*'],
    },
  ],
  format: formatter({ lineNumbers: false }),
})
