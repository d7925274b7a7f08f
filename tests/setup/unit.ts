import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import 'fake-indexeddb/auto'
import { afterEach } from 'vitest'
import { forgetIdleAnswers } from '../../src/mirror/live.ts'

// The screens are unmounted first (Testing Library's own cleanup would run after this hook, as
// it is registered by the import above), then the idle answers are dropped: the next test may
// swap the database, so no answer of this one is kept for a quick re-subscribe.
afterEach(() => {
  cleanup()
  forgetIdleAnswers()
})

// A screen's first render imports and transforms its whole tree: on a loaded two-core machine that
// alone can outlast Testing Library's 1 s default for `findBy…`, which then fails a test whose
// screen was right. The waits still end at the first match, and stay under the 5 s test timeout.
configure({ asyncUtilTimeout: 3_000 })
