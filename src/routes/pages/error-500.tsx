import { createFileRoute } from '@tanstack/react-router'
import { ServerErrorScreen } from '../../ui/error-screens.tsx'

// The same 500 screen the router shows for an unexpected failure (one screen, one text).
export const Route = createFileRoute('/pages/error-500')({ component: () => <ServerErrorScreen /> })
