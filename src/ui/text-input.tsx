import { IconSelector } from '@tabler/icons-react'
import { useId, type ComponentPropsWithoutRef, type CSSProperties, type ReactNode } from 'react'
import classes from './controls.module.css'

interface FieldProps {
  label?: ReactNode
  /** Shown under the input; also marks it invalid for assistive technology. */
  error?: ReactNode
  className?: string
  style?: CSSProperties
}

function Field({
  id,
  label,
  error,
  errorId,
  className,
  style,
  children,
}: FieldProps & { id: string; errorId: string; children: ReactNode }) {
  return (
    <div className={className ? `${classes.field} ${className}` : classes.field} style={style}>
      {label ? (
        <label className={classes.label} htmlFor={id}>
          {label}
        </label>
      ) : null}
      {children}
      {error ? (
        <div id={errorId} className={classes.error}>
          {error}
        </div>
      ) : null}
    </div>
  )
}

export interface TextInputProps
  extends Omit<ComponentPropsWithoutRef<'input'>, 'className' | 'style'>, FieldProps {
  /** An icon at the start (decorative). */
  leftSection?: ReactNode
  /** A control at the end (a clear button). */
  rightSection?: ReactNode
}

/** The control's id (the given one, else a generated one) and the id of its error line. */
function useFieldIds(givenId: string | undefined): { id: string; errorId: string } {
  const ownId = useId()
  const id = givenId ?? ownId
  return { id, errorId: `${id}-error` }
}

/** A labelled text input with its error underneath (Mantine's TextInput look, size md). */
export function TextInput({
  label,
  error,
  className,
  style,
  leftSection,
  rightSection,
  id: givenId,
  ...rest
}: TextInputProps) {
  const { id, errorId } = useFieldIds(givenId)
  return (
    <Field id={id} errorId={errorId} {...{ label, error, className, style }}>
      <div className={classes.inputWrap}>
        {leftSection ? (
          <span className={classes.section} data-position="left">
            {leftSection}
          </span>
        ) : null}
        <input
          {...rest}
          id={id}
          className={classes.input}
          data-with-left={leftSection ? true : undefined}
          data-with-right={rightSection ? true : undefined}
          data-error={error ? true : undefined}
          aria-invalid={error ? true : rest['aria-invalid']}
          aria-describedby={error ? errorId : rest['aria-describedby']}
        />
        {rightSection ? (
          <span className={classes.section} data-position="right">
            {rightSection}
          </span>
        ) : null}
      </div>
    </Field>
  )
}

export interface NativeSelectProps
  extends Omit<ComponentPropsWithoutRef<'select'>, 'className' | 'style'>, FieldProps {
  data: { value: string; label: string }[]
}

/** The platform's own picker (best on a tablet), styled like Mantine's NativeSelect. */
export function NativeSelect({
  label,
  error,
  className,
  style,
  data,
  id: givenId,
  ...rest
}: NativeSelectProps) {
  const { id, errorId } = useFieldIds(givenId)
  return (
    <Field id={id} errorId={errorId} {...{ label, error, className, style }}>
      <div className={classes.inputWrap}>
        <select
          {...rest}
          id={id}
          className={classes.input}
          data-with-right
          data-error={error ? true : undefined}
          aria-invalid={error ? true : rest['aria-invalid']}
          aria-describedby={error ? errorId : rest['aria-describedby']}
        >
          {data.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <span className={classes.section} data-position="right" data-passive>
          <IconSelector size={16} aria-hidden />
        </span>
      </div>
    </Field>
  )
}
