import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { Button } from '../../ui/button.tsx'
import classes from './language-switch.module.css'
import { LOCALES, setLocale } from './locale.ts'

/** RU / EN switch for the top bar (Mantine-free: it is part of the first paint). */
export function LanguageSwitch() {
  const { i18n, t } = useLingui()
  const [busy, setBusy] = useState(false)
  return (
    <div role="group" className={classes.group} aria-label={t`Язык интерфейса`}>
      {LOCALES.map((locale) => {
        const active = i18n.locale === locale
        return (
          <Button
            key={locale}
            size="compact-sm"
            variant={active ? 'filled' : 'default'}
            aria-pressed={active}
            disabled={busy && !active}
            lang={locale}
            onClick={() => {
              if (active) return
              setBusy(true)
              setLocale(locale).finally(() => setBusy(false))
            }}
          >
            {locale.toUpperCase()}
          </Button>
        )
      })}
    </div>
  )
}
