import { cutsOf } from '../../server/http/list-gzip.ts'
import { withRows } from '../../server/services/list-cache.ts'

/**
 * A kept list of `rows` as server/services/list-cache.ts writes it (rows in id order), with where
 * server/http/list-gzip.ts cuts it into pieces.
 */
export function keptList(rows: readonly { id: number }[]) {
  const sorted = [...rows].sort((a, b) => a.id - b.id)
  const empty = { json: Buffer.from('[]'), index: { ids: [], ends: [] } }
  const { json, index } = withRows(
    empty,
    sorted.map((row) => ({ id: row.id, json: Buffer.from(JSON.stringify(row)) })),
  )
  return { bytes: json, cuts: cutsOf(index.ids, index.ends, json.byteLength) }
}
