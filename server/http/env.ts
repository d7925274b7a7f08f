import type { HttpBindings } from '@hono/node-server'
import type { User } from '../../src/domain/user.ts'
import type { Services } from '../services/services.ts'

export interface AppEnv {
  Bindings: Partial<HttpBindings>
  Variables: { user: User; services: Services }
}
