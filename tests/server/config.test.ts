import { describe, expect, it } from 'vitest'
import { readConfig } from '../../server/config.ts'

describe('the server settings (server/config.ts)', () => {
  it('keeps uploads on disk unless S3 is set, and takes S3 only whole', () => {
    expect(readConfig({}).s3).toBeUndefined()
    const s3 = {
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_BUCKET: 'promo-uploads',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    }
    expect(readConfig(s3).s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'promo-uploads',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      region: 'us-east-1',
    })
    expect(readConfig({ ...s3, S3_REGION: 'ru-central1' }).s3?.region).toBe('ru-central1')
    // Half a setting is a mistake the operator hears about at start, not a silent fall-back.
    expect(() => readConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_/)
    expect(() => readConfig({ ...s3, S3_BUCKET: 'Not_A_Bucket' })).toThrow(/S3_BUCKET/)
  })
})
