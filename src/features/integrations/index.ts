// The integrations' screens: the overview, the lists, the add and edit pages, and
// the amoCRM authorization's return.
export { validateAmoOauthSearch } from './amo-oauth-search.ts'
export { AmoOauthNotice, useAmoOauthOutcome } from './amo-oauth.tsx'
export { IntegrationAddPage } from './integration-add-page.tsx'
export { IntegrationEditPage } from './integration-pages.tsx'
export { IntegrationsListPage } from './integrations-list-page.tsx'
export { IntegrationsOverviewPage } from './integrations-overview-page.tsx'
