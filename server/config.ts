import * as v from 'valibot'

const positiveInt = (fallback: number) =>
  v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number)),
    String(fallback),
  )

const EnvSchema = v.object({
  PORT: positiveInt(8080),
  HOST: v.optional(v.string()),
  DATA_DIR: v.optional(v.pipe(v.string(), v.nonEmpty()), './data'),
  DATABASE_URL: v.optional(
    v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'must be postgres://…')),
  ),
  STATIC_DIR: v.optional(v.string(), 'dist'),
  UPLOAD_MAX_BYTES: positiveInt(10 * 1024 * 1024),
  VIDEO_UPLOAD_MAX_BYTES: positiveInt(100 * 1024 * 1024),
  UPLOAD_QUOTA_BYTES: positiveInt(1024 * 1024 * 1024),
  TOKEN_TTL_DAYS: positiveInt(30),
  TRUST_PROXY: v.optional(
    v.pipe(v.string(), v.regex(/^(\d+|true|false)$/, 'must be a number of proxies, true or false')),
    '0',
  ),
  /** Where published pages are seen from, e.g. https://promo.example.ru (docs/publishing.md). */
  PUBLIC_URL: v.optional(
    v.pipe(v.string(), v.regex(/^https?:\/\/[^/]+\/?$/, 'must be http(s)://host')),
  ),
  SEED: v.optional(v.picklist(['0', '1', 'true', 'false']), '1'),
  /**
   * Tests only: every outbound call (amoCRM, Bitrix24, web hooks) goes to
   * `{OUTBOUND_TEST_ORIGIN}/{host}{path}`, and private addresses are allowed (docs/crm.md).
   */
  /**
   * Uploads in S3-compatible object storage instead of DATA_DIR/uploads (server/README.md,
   * "Settings (environment)"): all of endpoint, bucket and keys, or none.
   */
  S3_ENDPOINT: v.optional(v.pipe(v.string(), v.url('must be http(s)://host'))),
  S3_BUCKET: v.optional(
    v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name')),
  ),
  S3_ACCESS_KEY_ID: v.optional(v.string()),
  S3_SECRET_ACCESS_KEY: v.optional(v.string()),
  S3_REGION: v.optional(v.string(), 'us-east-1'),
  OUTBOUND_TEST_ORIGIN: v.optional(
    v.pipe(v.string(), v.regex(/^https?:\/\/[^/]+\/?$/, 'must be http(s)://host:port')),
  ),
})

export type ServerConfig = ReturnType<typeof readConfig>

/** Reads the environment once at start; a bad value stops the process with a readable list. */
export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  const picked = Object.fromEntries(
    Object.keys(EnvSchema.entries).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  )
  const result = v.safeParse(EnvSchema, picked)
  if (!result.success) {
    const lines = result.issues.map((i) => `  ${v.getDotPath(i) ?? '?'}: ${i.message}`)
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  const e = result.output
  const s3Keys = [e.S3_ENDPOINT, e.S3_BUCKET, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY]
  if (s3Keys.some(Boolean) && !s3Keys.every(Boolean))
    throw new Error(
      'Invalid environment:\n  S3_*: set S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together',
    )
  return {
    port: e.PORT,
    hostname: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    staticDir: e.STATIC_DIR,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    videoUploadMaxBytes: e.VIDEO_UPLOAD_MAX_BYTES,
    uploadQuotaBytes: e.UPLOAD_QUOTA_BYTES,
    tokenTtlDays: e.TOKEN_TTL_DAYS,
    /** Proxies of our own in front: `true` is one. */
    trustProxy:
      e.TRUST_PROXY === 'true' ? 1 : e.TRUST_PROXY === 'false' ? 0 : Number(e.TRUST_PROXY),
    seed: e.SEED === '1' || e.SEED === 'true',
    publicUrl: e.PUBLIC_URL,
    delivery: e.OUTBOUND_TEST_ORIGIN ? { testOrigin: e.OUTBOUND_TEST_ORIGIN } : undefined,
    s3:
      e.S3_ENDPOINT && e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            region: e.S3_REGION,
          }
        : undefined,
  }
}
