/**
 * @module A colour arg's control: the text field (any CSS colour, applied on blur or Enter) and beside it a
 * colour picker, which sets `#rrggbb` at once. The picker shows the value's colour, or the theme's default
 * while the value is unset or a form it cannot show (a name, `hsl()`).
 */
import { CommitInput } from './CommitInput.tsx'
import { colorToHex } from './color-value.ts'

export interface ColorInputProps {
  id: string
  label: string
  value: string
  /** The colour the theme gives when the value is unset. */
  fallback: string | undefined
  placeholder?: string
  describedBy?: string
  onCommit: (value: string) => void
}

export function ColorInput({
  id,
  label,
  value,
  fallback,
  placeholder,
  describedBy,
  onCommit,
}: ColorInputProps) {
  return (
    <span className="pg-color">
      <CommitInput
        id={id}
        type="text"
        aria-describedby={describedBy}
        placeholder={placeholder}
        value={value}
        onCommit={onCommit}
      />
      <input
        type="color"
        id={`${id}-picker`}
        aria-label={`${label} colour picker`}
        value={colorToHex(value) ?? colorToHex(fallback) ?? '#000000'}
        onChange={(event) => onCommit(event.target.value)}
      />
    </span>
  )
}
