// The sidebar's count of new requests.
export { loadNewAppealsBadge } from './on-demand.ts'
