/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core'
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching'
import { installBackgroundSync } from './background-sync.ts'
import { cacheFonts } from './sw/fonts-cache.ts'
import { routeClientNavigations } from './sw/navigation.ts'
import { acceptUpdateWhenAsked } from './sw/update.ts'
import { cacheUploads } from './sw/uploads-cache.ts'

declare const self: ServiceWorkerGlobalScope

// The built app (JS, CSS, index.html; the manifest and icons are added by vite-plugin-pwa).
precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()
// Order matters only among overlapping routes: navigations, /uploads/* and font files never overlap.
routeClientNavigations()
cacheUploads()
cacheFonts()
// Prompt strategy: a new version waits until the page says the user accepted it.
acceptUpdateWhenAsked(self)
// The first install controls the page that registered it, so a first visit already works offline.
clientsClaim()

// Replays the outbox on Background Sync (the page registers the tag when changes wait offline).
installBackgroundSync(self)
