import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'

export const Route = createFileRoute('/')({
  component: () => (
    <h1>
      <Trans>Промо-конструктор</Trans>
    </h1>
  ),
})
