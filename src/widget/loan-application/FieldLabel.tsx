/** @module A field's visible label, with "(optional)" after it for a field the visitor may leave blank. */
import type { ReactNode } from 'react'

export function FieldLabel(props: { text: string; optional: string | undefined }): ReactNode {
  if (props.optional === undefined) return props.text
  return (
    <>
      {props.text} <span className="ow-muted">{props.optional}</span>
    </>
  )
}
