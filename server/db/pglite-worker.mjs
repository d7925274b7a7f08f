// The entry of the database thread (pglite-thread.ts). The thread's code is TypeScript, loaded
// through tsx in a namespace of its own, so it starts the same under tsx and under the test runner.
import { tsImport } from 'tsx/esm/api'

await tsImport('./pglite-worker.ts', import.meta.url)
