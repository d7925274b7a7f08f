import { describe, expect, it } from 'vitest'
import {
  needsIosInstallHint,
  type InstallEnvironment,
} from '../../src/features/install-hint/ios-install.ts'

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
const IPAD_SAFARI_MOBILE_SITE =
  'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1'
// iPadOS 13+ Safari asks for desktop sites: the same string as Safari on a Mac.
const DESKTOP_CLASS_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'
const IPHONE_CHROME =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0.6312.52 Mobile/15E148 Safari/604.1'
const IPAD_FIREFOX =
  'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/124.0 Mobile/15E148 Safari/605.1.15'
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36'

function env(overrides: Partial<InstallEnvironment>): InstallEnvironment {
  return {
    userAgent: IPHONE_SAFARI,
    platform: 'iPhone',
    maxTouchPoints: 5,
    standalone: false,
    displayModeStandalone: false,
    ...overrides,
  }
}

describe('iPad/iPhone install hint', () => {
  it('is shown in Safari on iPhone and on iPad asking for mobile sites', () => {
    expect(needsIosInstallHint(env({}))).toBe(true)
    expect(needsIosInstallHint(env({ userAgent: IPAD_SAFARI_MOBILE_SITE, platform: 'iPad' }))).toBe(
      true,
    )
  })

  it('recognises iPadOS Safari that reports itself as a Mac by its touch screen', () => {
    const ipad = env({ userAgent: DESKTOP_CLASS_SAFARI, platform: 'MacIntel', maxTouchPoints: 5 })
    expect(needsIosInstallHint(ipad)).toBe(true)
    // A real Mac has no touch points: no hint there.
    expect(needsIosInstallHint({ ...ipad, maxTouchPoints: 0 })).toBe(false)
  })

  it('is not shown once the app runs from the home screen', () => {
    expect(needsIosInstallHint(env({ standalone: true }))).toBe(false)
    expect(needsIosInstallHint(env({ standalone: undefined, displayModeStandalone: true }))).toBe(
      false,
    )
  })

  it('is not shown in other browsers on iOS or anywhere else', () => {
    expect(needsIosInstallHint(env({ userAgent: IPHONE_CHROME }))).toBe(false)
    expect(needsIosInstallHint(env({ userAgent: IPAD_FIREFOX, platform: 'iPad' }))).toBe(false)
    expect(
      needsIosInstallHint(
        env({ userAgent: ANDROID_CHROME, platform: 'Linux armv8l', standalone: undefined }),
      ),
    ).toBe(false)
  })
})
