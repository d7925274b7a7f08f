import { useLayoutEffect, useRef, type ComponentPropsWithoutRef } from 'react'
import classes from './controls.module.css'
import { Field, fieldAria, useFieldId, type FieldProps } from './text-input.tsx'

export interface TextareaProps
  extends Omit<ComponentPropsWithoutRef<'textarea'>, 'className' | 'style'>, FieldProps {
  /** Grows with its text between these many rows (3 and 10 unless told). */
  minRows?: number
  maxRows?: number
}

/** Rows to pixels: the textarea's line height and its vertical padding and border. */
function heightOf(area: HTMLTextAreaElement, rows: number): number {
  const style = getComputedStyle(area)
  const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.55 || 24
  const extra =
    (parseFloat(style.paddingTop) || 0) +
    (parseFloat(style.paddingBottom) || 0) +
    (parseFloat(style.borderTopWidth) || 0) +
    (parseFloat(style.borderBottomWidth) || 0)
  return rows * line + extra
}

/** A labelled multi-line text that grows with its text (Mantine's autosize Textarea look). */
export function Textarea({
  label,
  description,
  error,
  className,
  style,
  minRows = 3,
  maxRows = 10,
  id: givenId,
  ...rest
}: TextareaProps) {
  const id = useFieldId(givenId)
  const ref = useRef<HTMLTextAreaElement>(null)
  const { value } = rest
  useLayoutEffect(() => {
    const area = ref.current
    if (!area) return
    const min = heightOf(area, minRows)
    const max = heightOf(area, maxRows)
    area.style.height = 'auto'
    const wanted = Math.min(max, Math.max(min, area.scrollHeight + 2))
    area.style.height = `${wanted}px`
    area.style.overflowY = area.scrollHeight + 2 > max ? 'auto' : 'hidden'
  }, [value, minRows, maxRows])
  return (
    <Field id={id} required={rest.required} {...{ label, description, error, className, style }}>
      <textarea
        ref={ref}
        rows={minRows}
        {...rest}
        {...fieldAria(id, { description, error }, rest)}
        className={classes.input}
      />
    </Field>
  )
}
