import type * as Crypto from 'node:crypto'

/**
 * node:crypto with a `scrypt` that remembers its answers, for the soak (`vi.mock('node:crypto')`
 * in tests/integration/convergence.test.ts and soak-mutants.test.ts). Every seed signs its person
 * in again and again under faults, and each sign-in that reaches the server verifies the same
 * password against the same salt: about 50 ms of CPU each, a third of a seed's CPU time. scrypt is
 * a pure function, so the server still gets exactly the key it would compute; a password or salt
 * it has not seen (a registration) is computed for real. The answer still comes asynchronously.
 */
export const scryptCalls = { computed: 0, remembered: 0 }

export function withRememberedScrypt(crypto: typeof Crypto): typeof Crypto {
  const known = new Map<string, Buffer>()
  const scrypt = (...args: unknown[]) => {
    const done = args.pop() as (error: Error | null, key: Buffer) => void
    const [password, salt, keylen, options] = args as [
      Crypto.BinaryLike,
      Crypto.BinaryLike,
      number,
      Crypto.ScryptOptions | undefined,
    ]
    const id = JSON.stringify([
      Buffer.from(password as string).toString('base64'),
      Buffer.from(salt as string).toString('base64'),
      keylen,
      options ?? null,
    ])
    const remembered = known.get(id)
    if (remembered) {
      scryptCalls.remembered += 1
      setImmediate(() => done(null, Buffer.from(remembered)))
      return
    }
    scryptCalls.computed += 1
    crypto.scrypt(password, salt, keylen, options ?? {}, (error, key) => {
      if (!error) known.set(id, Buffer.from(key))
      done(error, key)
    })
  }
  return { ...crypto, default: { ...crypto, scrypt }, scrypt } as typeof Crypto
}
