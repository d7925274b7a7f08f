/**
 * The reference server alone in its process, for tests/bench/upload-bench.ts to measure: a
 * throwaway database, uploads on disk in the directory given as the first argument. Prints one
 * line of JSON with its URL once it serves.
 */
import { startServer } from '../../server/start.ts'
import { DiskUploadStorage } from '../../server/uploads/storage.ts'

const dir = process.argv[2]
if (!dir) throw new Error('usage: upload-server.ts <uploads dir>')
const server = await startServer({
  port: 0,
  dataDir: 'memory',
  uploads: new DiskUploadStorage(dir),
  uploadQuotaBytes: 0,
  uploadSweepEveryMs: 0,
})
console.log(JSON.stringify({ url: server.url }))
