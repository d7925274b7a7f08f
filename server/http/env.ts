import type { HttpBindings } from '@hono/node-server'
import type { User } from '../../src/domain/user.ts'
import type { Services } from '../services/services.ts'
import type { ReceivedUpload } from '../uploads/received.ts'

export interface AppEnv {
  Bindings: Partial<HttpBindings>
  /** `upload`: the body of an upload route, received as it streamed (server/http/upload-body.ts). */
  Variables: { user: User; services: Services; upload: ReceivedUpload }
}
