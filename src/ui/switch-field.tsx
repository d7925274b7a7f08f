import { useId, type ReactNode } from 'react'
import { Switch, type SwitchProps } from './switch.tsx'
import own from './switch-field.module.css'

export interface SwitchFieldProps extends SwitchProps {
  label: ReactNode
  /** A line under the label saying what the switch does. */
  description?: ReactNode
}

/**
 * The same switch with its label and description beside it (the record forms): one switch look in
 * the lists and the forms. A tap on the text toggles it too.
 */
export function SwitchField({ label, description, id: givenId, ...rest }: SwitchFieldProps) {
  const ownId = useId()
  const id = givenId ?? ownId
  const descriptionId = `${id}-description`
  return (
    <div className={own.field}>
      <Switch {...rest} id={id} aria-describedby={description ? descriptionId : undefined} />
      <div className={own.text}>
        <label htmlFor={id} className={own.label}>
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className={own.description}>
            {description}
          </p>
        ) : null}
      </div>
    </div>
  )
}
