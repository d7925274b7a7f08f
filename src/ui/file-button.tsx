import { useId, type ReactNode } from 'react'

/**
 * A button that opens the platform's file picker (the picker's own input stays hidden): the
 * children get the click to put on their button. The same file can be picked again.
 */
export function FileButton(props: {
  onChange: (file: File | null) => void
  accept?: string
  children: (button: { onClick: () => void }) => ReactNode
}) {
  const id = useId()
  const open = () => document.getElementById(id)?.click()
  return (
    <>
      {props.children({ onClick: open })}
      <input
        id={id}
        type="file"
        hidden
        accept={props.accept}
        onChange={(event) => {
          props.onChange(event.currentTarget.files?.[0] ?? null)
          event.currentTarget.value = ''
        }}
      />
    </>
  )
}
