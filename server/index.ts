/** The reference API server: what other code (tests, the e2e harness, benches) may import. */
export { createApp, type ApiApp, type AppOptions, type AppReady } from './app.ts'
export { startServer, type RunningServer, type StartOptions } from './start.ts'
export { DEMO_ACCOUNTS } from './seed.ts'
export type { Database } from './db/database.ts'
export { openDatabase } from './db/database.ts'
