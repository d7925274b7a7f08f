import { lingui } from '@lingui/vite-plugin'
import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlib, gzip } from 'node:zlib'
import { defineConfig, type Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

// Runs Babel only on files that use the Lingui macros; everything else stays on Rolldown's fast path.
const linguiMacro = defineRolldownBabelPreset({
  preset: () => ({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
  rolldown: { filter: { code: /@lingui\/(core|react)\/macro/ } },
})

/**
 * Writes a brotli (highest quality) and a gzip (level 9) copy beside every text file of the build
 * (`x.js.br`, `x.js.gz`): the server sends them as they are instead of compressing on each request
 * (server/http/static.ts, docs/performance.md). The precache's patterns do not match them.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress)
  const gzipAsync = promisify(gzip)
  return {
    name: 'precompress',
    apply: 'build',
    enforce: 'post',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist'
      await Promise.all(
        Object.values(bundle).map(async (output) => {
          if (!/\.(js|mjs|css|html|svg|webmanifest|json)$/.test(output.fileName)) return
          const data = Buffer.from(output.type === 'chunk' ? output.code : output.source)
          if (data.length < 1024) return
          const path = join(dir, output.fileName)
          const br = await brotli(data, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          })
          await writeFile(`${path}.br`, br)
          await writeFile(`${path}.gz`, await gzipAsync(data, { level: 9 }))
        }),
      )
    },
  }
}

/** The features' public entries: index.ts, the editor's page-kit.ts (vite.page.config.ts too). */
const FEATURE_ENTRY = /[\\/]src[\\/]features[\\/]([^\\/]+[\\/]index|editor[\\/]page-kit)\.ts$/

const apiTarget = process.env.VITE_DEV_API ?? 'http://localhost:8080'

/**
 * The service worker cannot `import()`: its build resolves the lazy loader of the mutators
 * (src/sync/mutators/load.ts, which the page's sync worker fetches on its first write) to the
 * eager one beside it.
 */
const eagerMutatorsInServiceWorker: Plugin = {
  name: 'eager-mutators-in-service-worker',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === './mutators/load.ts' && importer?.endsWith('/src/sync/engine.ts'))
      return fileURLToPath(new URL('./src/sync/mutators/load-eager.ts', import.meta.url))
    return null
  },
}

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
      injectManifest: {
        globPatterns: ['**/*.{js,css,html}'],
        buildPlugins: { vite: [eagerMutatorsInServiceWorker] },
      },
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
    precompress(),
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
      // A feature's public entry only re-exports, as lint holds (`publicEntryShape` in
      // eslint.config.js): free of side effects, so importing one name from it brings that name's
      // module only, never the feature's other screens into a chunk that does not load them
      // (docs/performance.md).
      treeshake: { moduleSideEffects: [{ test: FEATURE_ENTRY, sideEffects: false }] },
      // React and the router as two long-lived chunks: the first load compresses better as a few
      // files than as dozens of slivers (-2.4 KiB gzip), and an app update leaves them cached.
      // Everything else is split where the module graph says (dynamic imports), never by lists of
      // file names kept by hand; a common chunk under 4 KiB of source (an icon, a small helper
      // shared by two screens) is copied into the chunks that use it instead of being a request
      // of its own: on a slow link each request waits its turn for one of six connections, and
      // the first screen's 60 slivers held the list's API calls back by 0.8 s (docs/performance.md).
      // Its price, strict execution order, is a few bytes per module (+0.4 KiB on the first screen).
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          experimentalInlineCommonChunks: { maxSize: 4096 },
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 3,
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
