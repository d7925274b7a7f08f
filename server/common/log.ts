/** Structured logs: one JSON object per line. Never pass tokens, passwords or secrets here. */
export type Logger = (entry: Record<string, unknown>) => void

export const jsonLogger: Logger = (entry) => {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`)
}

export const silentLogger: Logger = () => undefined
