import { Trans } from '@lingui/react/macro'
import { Button } from '../../ui/button.tsx'
import classes from './outdated-notice.module.css'

/**
 * The record changed elsewhere while the form holds unsaved edits: the edits are kept until the
 * person chooses to load the record as it is now (docs/SYNC.md, "Live changes").
 */
export function OutdatedNotice({ onReload }: { onReload: () => void }) {
  return (
    <div role="status" className={classes.notice} data-testid="outdated-notice">
      <p className={classes.text}>
        <Trans>
          Эту запись только что изменил кто-то другой. Ваши правки остались в форме: сохраните их
          или загрузите новую версию.
        </Trans>
      </p>
      <Button variant="light" onClick={onReload}>
        <Trans>Загрузить изменения</Trans>
      </Button>
    </div>
  )
}
