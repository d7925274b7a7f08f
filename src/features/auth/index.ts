// Signing in and the session (docs/app-shell.md): the pages of /pages/* and /callback, the guard,
// the session the app and other features read, and the account menu.
export { CallbackPage } from './callback-page.tsx'
export { ForgotPasswordForm } from './forgot-password-form.tsx'
export { safeRedirectTarget } from './guard.ts'
export { LockScreen } from './lock-screen.tsx'
export { LoginForm } from './login-form.tsx'
export { loadSignOutQuestion } from './on-demand.ts'
export { RegisterForm } from './register-form.tsx'
export { ResetPasswordForm } from './reset-password-form.tsx'
export {
  requireAuth,
  setAccountReadyWait,
  setLateUnauthorizedHandler,
  type RouterContext,
} from './route-guard.ts'
export { validateTokenSearch, validateToSearch } from './search.ts'
export {
  getValidToken,
  hasValidToken,
  onSessionChange,
  readSession,
  revokeWaiting,
  session,
  setSignOutConfirm,
  setUnsyncedChangesHook,
  type SessionSnapshot,
} from './session.ts'
export { useSessionUser } from './use-session-user.ts'
export { UserMenu } from './user-menu.tsx'
