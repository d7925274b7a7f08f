/**
 * Test hooks: the canvas exposes what browser journeys and the canvas benchmarks read
 * (`window.__promoEditorCanvas`, the host's `data-renderer` and `data-frames`) only in the test
 * build, `VITE_TEST_HOOKS=1` (made by tests/e2e/global-setup.ts). Each use reads
 * `import.meta.env.VITE_TEST_HOOKS === '1'` in place: Vite replaces it with a constant when it
 * builds, so `npm run build` drops that code altogether (docs/editor.md "Test hooks"; checked by
 * tests/e2e/test-hooks.e2e.ts), and a unit test can turn it on with `vi.stubEnv`.
 */
declare global {
  interface ImportMetaEnv {
    /** '1' in the test build only. */
    readonly VITE_TEST_HOOKS?: string
  }
}

export {}
