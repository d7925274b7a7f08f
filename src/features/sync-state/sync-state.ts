import { useLingui } from '@lingui/react/macro'
import type { SyncStatus } from '../../sync/client.ts'

/**
 * Where the person's changes are, in one word, from the sync status every screen shares: the
 * header's indicator and the editor's toolbar say the same (never «Сохранено» in one while the other
 * says changes wait). Offline is told by the browser and by requests that get no answer
 * (src/sync/reachability.ts); «Всё сохранено» only once the outbox has been read and is empty.
 */
export type SyncState =
  'offline' | 'unreachable' | 'saving' | 'pending' | 'parked' | 'checking' | 'saved'

export function syncState(status: SyncStatus): SyncState {
  if (!status.network) return 'offline'
  // A network that connects but gets no answer (a captive portal, a dead link, the API down).
  if (!status.online) return 'unreachable'
  if (status.replaying) return 'saving'
  if (status.pending > 0) return 'pending'
  if (status.parked > 0) return 'parked'
  // The counts are not read yet (a start, a reload): they may well hold changes.
  if (!status.counted) return 'checking'
  return 'saved'
}

export function useSyncStateLabel(state: SyncState, status: SyncStatus): string {
  const { t } = useLingui()
  const { pending, parked } = status
  switch (state) {
    case 'offline':
      return pending > 0 ? t`Нет сети · ждут: ${pending}` : t`Нет сети`
    case 'unreachable':
      return pending > 0 ? t`Сервер не отвечает · ждут: ${pending}` : t`Сервер не отвечает`
    case 'saving':
      return t`Сохраняется…`
    case 'pending':
      return t`Ждут отправки: ${pending}`
    case 'parked': {
      const { conflicts } = status
      const refused = parked - conflicts
      if (conflicts === 0) return t`Отклонено: ${parked}`
      if (refused === 0) return t`Конфликты: ${conflicts}`
      return t`Конфликты: ${conflicts} · отклонено: ${refused}`
    }
    case 'checking':
      return t`Проверяется…`
    case 'saved':
      return t`Всё сохранено`
  }
}
