import type { RecordKind } from '../../data/types.ts'

/** Where each kind's screens live: its list and the form of one record. */
export const RECORD_ROUTES = {
  amo: { list: '/integrations/amo', item: '/integrations/amo/$id' },
  bitrix: { list: '/integrations/bitrix', item: '/integrations/bitrix/$id' },
  department: { list: '/department', item: '/department/$id' },
  location: { list: '/locations', item: '/locations/$id' },
  specialist: { list: '/specialist', item: '/specialist/$id' },
} as const satisfies Record<RecordKind, { list: string; item: string }>

export type RecordRoutes = (typeof RECORD_ROUTES)[RecordKind]
