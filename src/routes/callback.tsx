import { createFileRoute } from '@tanstack/react-router'
import { CallbackPage } from '../features/auth/index.ts'
import { MantineScope } from '../ui/mantine-scope.tsx'
import { PlainLayout } from '../ui/plain-layout.tsx'

export const Route = createFileRoute('/callback')({
  component: () => (
    <PlainLayout>
      <MantineScope>
        <CallbackPage />
      </MantineScope>
    </PlainLayout>
  ),
})
