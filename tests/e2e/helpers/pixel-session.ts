import { expectShell, signIn, waitForServiceWorker } from './app.ts'
import { PIXEL_WINDOW } from './block-pixels.ts'
import { launchBrowser, type BrowserSession } from './browser.ts'
import { registerUser, type TestUser } from './editor.ts'

/**
 * A new person signed in, in the pixel checks' window (tests/e2e/helpers/block-pixels.ts): the
 * browser journeys of docs/editor.md «Canvas and preview, pixel for pixel» and docs/publishing.md
 * «The public page and the preview, pixel for pixel».
 */
export async function pixelSession(
  label: string,
): Promise<{ browser: BrowserSession; user: TestUser }> {
  const user = await registerUser(label)
  const browser = await launchBrowser({ viewport: PIXEL_WINDOW })
  await signIn(browser.page, user)
  await expectShell(browser.page, 'Проекты')
  await waitForServiceWorker(browser.page)
  return { browser, user }
}
