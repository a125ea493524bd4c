/**
 * @module A text or number field that applies its value on blur or Enter, not on every keystroke: a
 * half-typed endpoint or ZIP code would otherwise start a search per key. Escape puts the applied value back.
 */
import { type InputHTMLAttributes, useEffect, useState } from 'react'

export interface CommitInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'defaultValue'> {
  value: string
  onCommit: (value: string) => void
}

export function CommitInput({ value, onCommit, ...rest }: CommitInputProps) {
  const [draft, setDraft] = useState(value)
  useEffect(() => setDraft(value), [value])
  const commit = () => {
    if (draft !== value) onCommit(draft)
  }
  return (
    <input
      {...rest}
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault()
          commit()
        } else if (event.key === 'Escape') setDraft(value)
      }}
    />
  )
}
