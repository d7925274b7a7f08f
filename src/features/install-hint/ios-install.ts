/** What the detection reads from the browser; a plain object so it can be tested without one. */
export interface InstallEnvironment {
  userAgent: string
  platform: string
  maxTouchPoints: number
  /** Safari's `navigator.standalone`: true when opened from the home screen. */
  standalone?: boolean
  /** `matchMedia('(display-mode: standalone)').matches` */
  displayModeStandalone: boolean
}

/** Browsers on iOS that carry "Safari" in their user agent but are not Safari. */
const OTHER_IOS_BROWSERS =
  /CriOS|FxiOS|EdgiOS|OPiOS|OPT\/|YaBrowser|GSA\/|DuckDuckGo|Instagram|FBAN|FBAV/

function isAppleMobile(env: InstallEnvironment): boolean {
  if (/iPhone|iPad|iPod/.test(env.userAgent)) return true
  // iPadOS 13+ Safari asks for desktop sites by default and reports itself as a Mac: only the
  // touch screen tells it apart.
  return env.platform === 'MacIntel' && env.maxTouchPoints > 1
}

/**
 * Safari on iPad/iPhone has no `beforeinstallprompt`: the only way to install is Share → «На экран
 * Домой», which users rarely find alone. True when that hint helps: Apple mobile, Safari itself,
 * and not already opened as the installed app.
 */
export function needsIosInstallHint(env: InstallEnvironment): boolean {
  if (env.standalone === true || env.displayModeStandalone) return false
  if (!isAppleMobile(env)) return false
  return /Safari\//.test(env.userAgent) && !OTHER_IOS_BROWSERS.test(env.userAgent)
}

/** Reads the environment of the running browser. */
export function currentInstallEnvironment(): InstallEnvironment {
  const nav = navigator as Navigator & { standalone?: boolean }
  return {
    userAgent: nav.userAgent,
    platform: nav.platform,
    maxTouchPoints: nav.maxTouchPoints ?? 0,
    standalone: nav.standalone,
    displayModeStandalone:
      typeof matchMedia === 'function' && matchMedia('(display-mode: standalone)').matches,
  }
}
