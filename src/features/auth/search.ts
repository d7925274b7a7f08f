/** `?to=` of the sign-in pages: kept only when it is a string (sanitised where it is used). */
export function validateToSearch(search: Record<string, unknown>): { to?: string } {
  return typeof search.to === 'string' ? { to: search.to } : {}
}

/** `?token=` of the reset-password page. */
export function validateTokenSearch(search: Record<string, unknown>): { token?: string } {
  return typeof search.token === 'string' ? { token: search.token } : {}
}
