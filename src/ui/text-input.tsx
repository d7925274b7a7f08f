import { IconSelector } from '@tabler/icons-react'
import { useId, type ComponentPropsWithoutRef, type CSSProperties, type ReactNode } from 'react'
import classes from './controls.module.css'

export interface FieldProps {
  label?: ReactNode
  /** A line between the label and the input saying what goes in (read with the input). */
  description?: ReactNode
  /** Shown under the input; also marks it invalid for assistive technology. */
  error?: ReactNode
  className?: string
  style?: CSSProperties
}

/** A control's label, description and error around it; the ids tie them to the control. */
export function Field({
  id,
  label,
  description,
  error,
  required,
  className,
  style,
  children,
}: FieldProps & { id: string; required?: boolean; children: ReactNode }) {
  const { errorId, descriptionId } = fieldIds(id)
  return (
    <div className={className ? `${classes.field} ${className}` : classes.field} style={style}>
      {label ? (
        <label className={classes.label} htmlFor={id}>
          {label}
          {/* The input says it is required itself; the star is for the eye. */}
          {required ? (
            <span className={classes.required} aria-hidden>
              *
            </span>
          ) : null}
        </label>
      ) : null}
      {description ? (
        <p id={descriptionId} className={classes.description}>
          {description}
        </p>
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
  /** A control at the end (a clear button), or a fixed end of the value (a domain). */
  rightSection?: ReactNode
  /** The end section's width in px when it is wider than the 44 px of an icon. */
  rightSectionWidth?: number
}

function fieldIds(id: string) {
  return { errorId: `${id}-error`, descriptionId: `${id}-description` }
}

/** The control's id: the given one, else a generated one. */
export function useFieldId(givenId: string | undefined): string {
  const ownId = useId()
  return givenId ?? ownId
}

/**
 * The attributes that tie a control to its field: invalid while there is an error, described by
 * its description and its error (and whatever the caller adds).
 */
export function fieldAria(
  id: string,
  { description, error }: Pick<FieldProps, 'description' | 'error'>,
  own: { 'aria-invalid'?: unknown; 'aria-describedby'?: string },
) {
  const { errorId, descriptionId } = fieldIds(id)
  const describedBy = [
    own['aria-describedby'],
    description ? descriptionId : undefined,
    error ? errorId : undefined,
  ]
    .filter(Boolean)
    .join(' ')
  return {
    id,
    'aria-invalid': error ? true : (own['aria-invalid'] as boolean | undefined) || undefined,
    'aria-describedby': describedBy || undefined,
    'data-error': error ? true : undefined,
  }
}

/** A labelled text input with its error underneath (Mantine's TextInput look, size md). */
export function TextInput({
  label,
  description,
  error,
  className,
  style,
  leftSection,
  rightSection,
  rightSectionWidth,
  id: givenId,
  ...rest
}: TextInputProps) {
  const id = useFieldId(givenId)
  return (
    <Field id={id} required={rest.required} {...{ label, description, error, className, style }}>
      <div className={classes.inputWrap}>
        {leftSection ? (
          <span className={classes.section} data-position="left">
            {leftSection}
          </span>
        ) : null}
        <input
          {...rest}
          {...fieldAria(id, { description, error }, rest)}
          className={classes.input}
          style={rightSectionWidth ? { paddingInlineEnd: rightSectionWidth } : undefined}
          data-with-left={leftSection ? true : undefined}
          data-with-right={rightSection ? true : undefined}
        />
        {rightSection ? (
          <span
            className={classes.section}
            style={rightSectionWidth ? { width: rightSectionWidth } : undefined}
            data-position="right"
            data-passive={typeof rightSection === 'string' ? true : undefined}
          >
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
  /** An icon at the start (decorative). */
  leftSection?: ReactNode
}

/** The platform's own picker (best on a tablet), styled like Mantine's NativeSelect. */
export function NativeSelect({
  label,
  description,
  error,
  className,
  style,
  data,
  leftSection,
  id: givenId,
  ...rest
}: NativeSelectProps) {
  const id = useFieldId(givenId)
  return (
    <Field id={id} required={rest.required} {...{ label, description, error, className, style }}>
      <div className={classes.inputWrap}>
        {leftSection ? (
          <span className={classes.section} data-position="left">
            {leftSection}
          </span>
        ) : null}
        <select
          {...rest}
          {...fieldAria(id, { description, error }, rest)}
          className={classes.input}
          data-with-left={leftSection ? true : undefined}
          data-with-right
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

/**
 * Several controls under one label (a photo with its buttons): a named group, its error under it
 * and tied to the group.
 */
export function FieldGroup({
  label,
  error,
  className,
  style,
  children,
}: FieldProps & { label: ReactNode; children: ReactNode }) {
  const id = useId()
  const { errorId } = fieldIds(id)
  return (
    <div
      role="group"
      aria-labelledby={id}
      aria-describedby={error ? errorId : undefined}
      className={className ? `${classes.field} ${className}` : classes.field}
      style={style}
    >
      <div id={id} className={classes.label}>
        {label}
      </div>
      {children}
      {error ? (
        <div id={errorId} className={classes.error}>
          {error}
        </div>
      ) : null}
    </div>
  )
}
