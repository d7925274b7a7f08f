import { Navigate } from '@tanstack/react-router'

/** The router's not-found component: unknown paths (and notFound() throws) go to the 404 page. */
export function NotFoundRedirect() {
  return <Navigate to="/pages/error-404" replace />
}
