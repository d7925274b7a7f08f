import { lingui } from '@lingui/vite-plugin'
import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The published pages' renderer (docs/publishing.md): the app's block components compiled as the
// app is (Lingui macros and catalogs, the font files' /assets addresses, which are the app
// build's own), bundled for Node into dist-page/render.js, which the server imports.
const linguiMacro = defineRolldownBabelPreset({
  preset: () => ({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
  rolldown: { filter: { code: /@lingui\/(core|react)\/macro/ } },
})

/** The features' public entries: index.ts, and the editor's page-kit.ts (as vite.config.ts). */
const FEATURE_ENTRY = /[\\/]src[\\/]features[\\/]([^\\/]+[\\/]index|editor[\\/]page-kit)\.ts$/

export default defineConfig({
  plugins: [react(), babel({ presets: [linguiMacro] }), lingui()],
  publicDir: false,
  // React and Lingui go into the bundle in their production builds, whatever NODE_ENV the server
  // runs with: the development builds render a page several times slower.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  ssr: { noExternal: true },
  build: {
    ssr: 'src/features/published/render.tsx',
    outDir: 'dist-page',
    emptyOutDir: true,
    // The files its CSS names are the app build's (dist/assets); nothing to emit here.
    ssrEmitAssets: false,
    rollupOptions: {
      output: { entryFileNames: 'render.js' },
      // A feature's public entry only re-exports: free of side effects, as in vite.config.ts, so
      // the renderer takes from the editor's page-kit.ts only what it names.
      treeshake: { moduleSideEffects: [{ test: FEATURE_ENTRY, sideEffects: false }] },
    },
    minify: false,
    sourcemap: false,
  },
})
