import { IconCheck } from '@tabler/icons-react'
import type { ComponentPropsWithoutRef, ReactNode } from 'react'
import classes from './checkbox.module.css'
import { useFieldId } from './text-input.tsx'

export interface CheckboxProps extends Omit<ComponentPropsWithoutRef<'input'>, 'type'> {
  label: ReactNode
}

/**
 * A real checkbox with its label (Mantine's Checkbox look): a tap anywhere on the 44 px row toggles
 * it, Space too; the state is the input's own `checked`, never in its name.
 */
export function Checkbox({ label, id: givenId, className, style, ...rest }: CheckboxProps) {
  const id = useFieldId(givenId)
  return (
    <label
      className={className ? `${classes.root} ${className}` : classes.root}
      style={style}
      htmlFor={id}
    >
      <span className={classes.box}>
        <input {...rest} id={id} type="checkbox" className={classes.input} />
        <IconCheck className={classes.mark} size={14} stroke={3} aria-hidden />
      </span>
      <span>{label}</span>
    </label>
  )
}
