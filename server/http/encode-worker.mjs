// The encodings of server/http/compression.ts, run on a thread of piscina's pool rather than the
// server's own: a whole answer (a kept list of some 100 KB) deflated in one synchronous call here
// costs the server's thread only the message that brings the result back. Plain JavaScript, so the
// thread loads it as it is, under tsx and under the test runner alike.
import { move } from 'piscina'
import { deflateSync, gzipSync } from 'node:zlib'

/** @param {{ bytes: Uint8Array, encoding: 'gzip' | 'deflate' }} task */
export default function encode({ bytes, encoding }) {
  const out = encoding === 'gzip' ? gzipSync(bytes) : deflateSync(bytes)
  // Handed over, not copied: the thread keeps nothing of it.
  return move(out)
}
