// «Обращения» (docs/requests.md).
export { loadAppealsPage } from './on-demand.ts'
