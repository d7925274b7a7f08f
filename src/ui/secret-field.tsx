import { Trans, useLingui } from '@lingui/react/macro'
import { IconLock } from '@tabler/icons-react'
import { Button } from './button.tsx'
import { PasswordInput } from './password-input.tsx'
import classes from './secret-field.module.css'
import { Field, fieldAria, TextInput, useFieldId } from './text-input.tsx'

export interface SecretFieldProps {
  label: string
  /** The stored secret shown masked; `null` on a new record (then the field is a plain input). */
  masked: string | null
  /** `null` keeps the stored secret; a string is the new one being typed. */
  value: string | null
  onChange: (value: string | null) => void
  error?: string
  name: string
  /** Plain text input instead of a password field (a webhook URL). */
  visible?: boolean
  description?: string
}

/**
 * A secret is never shown in full: the stored one appears masked with «Заменить», which opens an
 * empty field for the new value; «Не менять» goes back to keeping the stored one.
 */
export function SecretField(props: SecretFieldProps) {
  const { t } = useLingui()
  const maskedId = useFieldId(undefined)
  if (props.masked !== null && props.value === null) {
    const { description, error } = props
    // The masked value stands where the input will be: the label names it, «Заменить» opens it.
    return (
      <Field id={maskedId} required label={props.label} {...{ description, error }}>
        <div className={classes.row}>
          <output
            className={classes.masked}
            {...fieldAria(maskedId, { description, error }, {})}
            data-testid={`${props.name}-masked`}
          >
            <IconLock size={16} aria-hidden />
            <span className={classes.value}>{props.masked}</span>
          </output>
          <Button variant="light" onClick={() => props.onChange('')} aria-describedby={maskedId}>
            <Trans>Заменить</Trans>
          </Button>
        </div>
      </Field>
    )
  }
  const Input = props.visible ? TextInput : PasswordInput
  return (
    <div className={classes.row}>
      <Input
        className={classes.input}
        name={props.name}
        label={props.label}
        description={props.description}
        autoComplete="off"
        value={props.value ?? ''}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        error={props.error}
        required
        data-autofocus={props.masked !== null ? true : undefined}
        autoFocus={props.masked !== null}
      />
      {props.masked !== null ? (
        <Button
          variant="default"
          className={props.description ? classes.keepDescribed : classes.keep}
          onClick={() => props.onChange(null)}
        >
          {t`Не менять`}
        </Button>
      ) : null}
    </div>
  )
}
