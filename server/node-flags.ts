/**
 * The Node options the server runs with, as `npm start` and `npm run serve` start it
 * (package.json; a unit test holds the two in step) and as the benchmarks fork it.
 *
 * `--no-wasm-dynamic-tiering`: V8 compiles PGlite's WebAssembly with its optimizing compiler as the
 * database opens, instead of running it first with its baseline compiler and optimizing the parts
 * that turn out hot. Opening the first database in a process takes about 0.5 s more (1.9 → 2.4 s
 * measured); the first visitors after a start wait less for the warm-up: the p99 of the first 250
 * requests sent to a process just started went from 133–180 ms to 101–117 ms (docs/crm.md, "The
 * first requests after a start"). With PostgreSQL it changes nothing.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-wasm-dynamic-tiering']
