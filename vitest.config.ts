import { lingui } from '@lingui/vite-plugin'
import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

const linguiMacro = defineRolldownBabelPreset({
  preset: () => ({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
  rolldown: { filter: { code: /@lingui\/(core|react)\/macro/ } },
})

// Kept apart from vite.config.ts so the PWA and router plugins do not run in tests.
export default defineConfig({
  plugins: [react(), babel({ presets: [linguiMacro] }), lingui()],
  test: {
    globals: true,
    // @pixi/react imports 'react-reconciler/constants' without an extension, which Node's ESM
    // resolver refuses; letting Vite transform it resolves the path (tests that load the route tree).
    server: { deps: { inline: [/@pixi[\\/]react/] } },
    projects: [
      {
        extends: true,
        test: {
          // Pure logic: no DOM. Its files share one module graph per worker (no isolation): each
          // sets up what it uses (a database of its own name, the API's base), and the project runs
          // in a quarter of the time (about 15 s instead of 53 s).
          name: 'unit',
          environment: 'node',
          isolate: false,
          include: ['tests/unit/**/*.test.ts'],
          setupFiles: ['tests/setup/pure.ts'],
        },
      },
      {
        extends: true,
        test: {
          // Screens and hooks: rendered into jsdom.
          name: 'screens',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.tsx'],
          setupFiles: ['tests/setup/unit.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/integration/**/*.test.ts'],
          // Hooks start the reference server on a database of its own: seconds on a loaded machine.
          hookTimeout: 60_000,
          setupFiles: ['tests/setup/integration.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          // What only PostgreSQL can show (two connections interleaving: tests/server/postgres/)
          // runs only with one.
          include: [
            'tests/server/*.test.ts',
            ...(process.env.DATABASE_URL ? ['tests/server/postgres/*.test.ts'] : []),
          ],
          // Hooks open databases (PGlite on its own thread): seconds on a loaded machine. So do the
          // tests that start a server of their own (settings of their own: a clock, a proxy).
          hookTimeout: 60_000,
          testTimeout: 30_000,
        },
      },
    ],
  },
})
