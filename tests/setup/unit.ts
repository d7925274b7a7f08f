import '@testing-library/jest-dom/vitest'
import { configure } from '@testing-library/react'
import 'fake-indexeddb/auto'
import { afterEach } from 'vitest'
import { forgetIdleAnswers } from '../../src/mirror/live.ts'

// Runs after Testing Library's cleanup has unmounted the screens: the next test may swap the
// database, so no answer of this one is kept for a quick re-subscribe.
afterEach(() => forgetIdleAnswers())

// A screen's first render imports and transforms its whole tree: on a loaded two-core machine that
// alone can outlast Testing Library's 1 s default for `findBy…`, which then fails a test whose
// screen was right. The waits still end at the first match.
configure({ asyncUtilTimeout: 5_000 })
