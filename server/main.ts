import { existsSync } from 'node:fs'
import { readConfig } from './config.ts'
import { jsonLogger } from './common/log.ts'
import { DEMO_ACCOUNTS } from './seed.ts'
import { startServer } from './start.ts'

// `npm run serve` / `npm start`: the PWA from dist/ and the API on one port.
async function main() {
  const config = readConfig()
  const staticDir = existsSync(config.staticDir) ? config.staticDir : undefined
  if (!staticDir) {
    jsonLogger({
      level: 'warn',
      message: `no built app in ${config.staticDir}; serving the API only`,
    })
  }
  const server = await startServer({
    ...config,
    staticDir,
    log: jsonLogger,
    // Every request would fail from then on: better to stop, so that whatever runs the server
    // (systemd, a container's restart policy) starts it again on the same data (server/README.md).
    onDatabaseFailure: (error) => {
      jsonLogger({ level: 'error', message: 'database stopped; exiting', error: String(error) })
      process.exit(1)
    },
  })
  const engine = config.databaseUrl ? 'postgres' : `pglite (${config.dataDir})`
  jsonLogger({ level: 'info', message: 'listening', url: server.url, engine })
  if (server.ready.seeded) {
    console.log('\nДемо-доступ (создан при первом запуске):')
    for (const account of server.ready.seeded.accounts) {
      console.log(`  ${account.role}: ${account.email} / ${account.password}`)
    }
    console.log('')
  } else if (config.seed) {
    const emails = DEMO_ACCOUNTS.map((a) => a.email).join(', ')
    jsonLogger({ level: 'info', message: `demo accounts (if kept): ${emails}` })
  }
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    jsonLogger({ level: 'info', message: 'stopping', signal })
    await server.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
