// The question before signing out with unsynced changes loads when it is asked.
export const loadSignOutQuestion = () => import('./sign-out.ts')
