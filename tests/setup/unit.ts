import '@testing-library/jest-dom/vitest'
import 'fake-indexeddb/auto'
import { afterEach } from 'vitest'
import { forgetIdleAnswers } from '../../src/mirror/live.ts'

// Runs after Testing Library's cleanup has unmounted the screens: the next test may swap the
// database, so no answer of this one is kept for a quick re-subscribe.
afterEach(() => forgetIdleAnswers())
