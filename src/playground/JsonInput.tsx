/**
 * @module A JSON editor for an object-valued arg (a lead, client tags, anything new): applied on blur when
 * it parses, otherwise the parse error is shown beside it and nothing changes.
 */
import { useEffect, useId, useState } from 'react'

export interface JsonInputProps {
  id: string
  value: unknown
  onCommit: (value: unknown) => void
  describedBy?: string
}

const show = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2))

export function JsonInput({ id, value, onCommit, describedBy }: JsonInputProps) {
  const [draft, setDraft] = useState(() => show(value))
  const [problem, setProblem] = useState<string | null>(null)
  const errorId = useId()
  useEffect(() => {
    setDraft(show(value))
    setProblem(null)
  }, [value])
  return (
    <>
      <textarea
        id={id}
        className="pg-json"
        rows={Math.min(12, Math.max(3, draft.split('\n').length))}
        spellCheck={false}
        value={draft}
        aria-invalid={problem !== null}
        aria-describedby={[describedBy, problem ? errorId : undefined].filter(Boolean).join(' ') || undefined}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => {
          if (draft.trim() === '') {
            setProblem(null)
            if (value !== undefined) onCommit(undefined)
            return
          }
          try {
            const parsed: unknown = JSON.parse(draft)
            setProblem(null)
            if (JSON.stringify(parsed) !== JSON.stringify(value)) onCommit(parsed)
          } catch (error) {
            setProblem(`Not applied: ${(error as Error).message}`)
          }
        }}
      />
      {problem && (
        <span id={errorId} className="pg-error">
          {problem}
        </span>
      )}
    </>
  )
}
