import { lingui } from '@lingui/vite-plugin'
import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

// Runs Babel only on files that use the Lingui macros; everything else stays on Rolldown's fast path.
const linguiMacro = defineRolldownBabelPreset({
  preset: () => ({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
  rolldown: { filter: { code: /@lingui\/(core|react)\/macro/ } },
})

const apiTarget = process.env.VITE_DEV_API ?? 'http://localhost:8080'

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes' }),
    react(),
    babel({ presets: [linguiMacro] }),
    lingui(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'workers',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      injectManifest: { globPatterns: ['**/*.{js,css,html}'] },
      // The manifest's icons are precached by the plugin; these two are only linked from index.html.
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        name: 'Промо-конструктор',
        short_name: 'Промо',
        description: 'Конструктор промо-страниц и справочник интеграций',
        lang: 'ru',
        start_url: '/projects',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#228be6',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: '/icons/icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  worker: { format: 'es' },
  server: {
    proxy: { '/api': apiTarget, '/uploads': apiTarget },
  },
  build: {
    target: 'es2022',
    // No modulepreload polyfill in every page's entry (0.4 KiB gzip): Chromium, Firefox 115+ and
    // Safari 17+ preload modules natively; an older Safari still works, fetching imports as it meets them.
    modulePreload: { polyfill: false },
    sourcemap: false,
    manifest: true,
    rolldownOptions: {
      // React and the router as two long-lived chunks: the first load compresses better as a few
      // files than as dozens of slivers (-2.4 KiB gzip), and an app update leaves them cached.
      output: {
        advancedChunks: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 3,
            },
            {
              // The icons every list page shows (add, delete, clear, pending, no workspace) as one
              // file instead of a sliver each: a list page's first load stays within its budget
              // (scripts/check-bundle.mjs). Only the icons themselves: their helper is the shell's.
              name: 'list-icons',
              test: /@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/]icons[\\/]Icon(Plus|Trash|X|CloudUpload|Folders|AlertTriangle)\.mjs$/,
              includeDependenciesRecursively: false,
              priority: 1,
            },
            {
              // Likewise the small pieces every list page shares (row controls, header, sorts,
              // the command runner).
              name: 'list-controls',
              test: /src[\\/](domain[\\/]quotes|ui[\\/]initials|ui[\\/](links|row-delete-button|switch|sync-mark|page-header|confirm-delete|badge)|features[\\/]records[\\/](no-workspace|sorts|record-routes|remove-record|run-command|command-error)|data[\\/]errors|features[\\/]auth[\\/]use-session-user)\.tsx?$/,
              includeDependenciesRecursively: false,
              priority: 1,
            },
            {
              // The sidebar's section icons, which the shell always loads, in one file too.
              name: 'nav-icons',
              test: /@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/]icons[\\/]Icon(LayoutGrid|BuildingHospital|MapPin|Users|PlugConnected)\.mjs$/,
              includeDependenciesRecursively: false,
              priority: 1,
            },
            {
              name: 'router',
              test: /node_modules[\\/]@tanstack[\\/](router-core|react-router|history|store|react-store)[\\/]/,
              priority: 2,
            },
          ],
        },
      },
    },
  },
})
