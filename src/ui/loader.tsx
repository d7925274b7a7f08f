import { Spinner } from './button.tsx'

/**
 * A spinning ring in the primary colour (Mantine's Loader). With a `label` it is a status that
 * assistive technology reads («Загрузка…»); without one it is decoration next to text that says it.
 */
export function Loader({ size = 36, label }: { size?: number; label?: string }) {
  if (!label) return <Spinner size={size} />
  return (
    <span role="status" aria-label={label} style={{ display: 'inline-flex' }}>
      <Spinner size={size} />
    </span>
  )
}
