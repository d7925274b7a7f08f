import { useLingui } from '@lingui/react/macro'
import { SegmentedControl } from '@mantine/core'
import { useState } from 'react'
import { isLocale, setLocale } from './locale.ts'

/** RU / EN switch for the top bar. */
export function LanguageSwitch() {
  const { i18n, t } = useLingui()
  const [busy, setBusy] = useState(false)
  return (
    <SegmentedControl
      size="xs"
      radius="md"
      aria-label={t`Язык интерфейса`}
      value={i18n.locale}
      disabled={busy}
      data={[
        { value: 'ru', label: 'RU' },
        { value: 'en', label: 'EN' },
      ]}
      onChange={(value) => {
        if (!isLocale(value)) return
        setBusy(true)
        setLocale(value).finally(() => setBusy(false))
      }}
    />
  )
}
