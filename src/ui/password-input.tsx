import { useLingui } from '@lingui/react/macro'
import { IconEye, IconEyeOff } from '@tabler/icons-react'
import { useState } from 'react'
import classes from './controls.module.css'
import { TextInput, type TextInputProps } from './text-input.tsx'

/**
 * A password field with a button that shows what was typed. The button's name stays «Показать
 * пароль»; whether it is shown is its `aria-pressed`.
 */
export function PasswordInput(props: Omit<TextInputProps, 'type' | 'rightSection'>) {
  const { t } = useLingui()
  const [visible, setVisible] = useState(false)
  return (
    <TextInput
      {...props}
      type={visible ? 'text' : 'password'}
      rightSection={
        <button
          type="button"
          className={`${classes.plain} ${classes.reveal}`}
          aria-label={t`Показать пароль`}
          aria-pressed={visible}
          disabled={props.disabled}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? <IconEyeOff size={18} aria-hidden /> : <IconEye size={18} aria-hidden />}
        </button>
      }
    />
  )
}
