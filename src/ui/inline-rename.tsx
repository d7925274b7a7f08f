import { useLingui } from '@lingui/react/macro'
import { IconCheck, IconX } from '@tabler/icons-react'
import { useState, type FormEvent } from 'react'
import { IconButton } from './button.tsx'
import classes from './inline-rename.module.css'
import { TextInput } from './text-input.tsx'

export interface InlineRenameProps {
  /** The field's accessible name, e.g. «Название проекта». */
  label: string
  name: string
  /** The name as it will be saved, or the field's message. */
  check: (name: string) => { name: string } | { error: string }
  /** Saves a changed name (not called when it is unchanged). */
  save: (name: string) => Promise<unknown>
  /** The form is done: saved, unchanged or cancelled (Esc, ✕). */
  onDone: () => void
}

/**
 * A name edited where it is shown (a project's row, a workspace in the workspaces dialog): Enter or
 * ✓ saves, Esc or ✕ cancels without closing what holds it. One form for every such place.
 */
export function InlineRename(props: InlineRenameProps) {
  const { t } = useLingui()
  const [name, setName] = useState(props.name)
  const [error, setError] = useState<string>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const checked = props.check(name)
    if ('error' in checked) return setError(checked.error)
    if (checked.name !== props.name) await props.save(checked.name)
    props.onDone()
  }
  return (
    <form
      className={classes.form}
      noValidate
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return
        // A dialog around the form stays open: Esc leaves the field, not the dialog.
        event.stopPropagation()
        props.onDone()
      }}
    >
      <div className={classes.row}>
        <TextInput
          style={{ flex: 1 }}
          aria-label={props.label}
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value)
            setError(undefined)
          }}
          error={error}
          autoFocus
          onFocus={(event) => event.currentTarget.select()}
          // A Mantine dialog around the form closes on Esc unless its target says not to.
          data-mantine-stop-propagation
        />
        <IconButton type="submit" aria-label={t`Сохранить название`}>
          <IconCheck size={20} />
        </IconButton>
        <IconButton variant="default" onClick={props.onDone} aria-label={t`Отменить`}>
          <IconX size={20} />
        </IconButton>
      </div>
    </form>
  )
}
