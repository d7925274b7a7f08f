// «Обращения» and its words load with its route (docs/requests.md).
export const loadAppealsPage = () => import('./appeals-page.tsx')
