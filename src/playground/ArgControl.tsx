/**
 * @module One control for one arg, chosen by the kind of its type as read from the widget's exported types
 * (props-doc): a select for a union of literals, a checkbox (or yes / no / not set, for a field that may be
 * left out) for a boolean, a field applied on blur or Enter for text and numbers (with a colour picker beside a
 * colour), a JSON editor for objects.
 */

import type { ReactNode } from 'react'
import { ColorInput } from './ColorInput.tsx'
import { CommitInput } from './CommitInput.tsx'
import { JsonInput } from './JsonInput.tsx'
import type { PropControl } from './props-doc/prop-doc.ts'

export interface ArgControlProps {
  path: string
  label: string
  doc: string
  control: PropControl
  value: unknown
  /** The story's value; the control marks a difference from it. */
  storyValue: unknown
  /** A field that may be left out (`search.isHomeOwner`): booleans get a "not set" choice. */
  unsettable: boolean
  placeholder?: string
  /** A colour (a `--ow-color-*` variable): a picker beside the text field, showing `fallback` while unset. */
  color?: { fallback: string | undefined }
  onChange: (value: unknown) => void
}

/** The DOM id of a control, for labels and tests: `ctl-search-zipCode`. */
const controlId = (path: string) => `ctl-${path.replace(/\./g, '-')}`

// long-function: one control per kind of arg (choice, boolean, color, text or number, object), side by side so a new kind is added beside the others
export function ArgControl(props: ArgControlProps) {
  const { path, control, value, onChange } = props
  const id = controlId(path)
  const docId = `${id}-doc`
  const changed = JSON.stringify(value) !== JSON.stringify(props.storyValue)
  const describedBy = props.doc ? docId : undefined
  let input: ReactNode
  if (control.kind === 'select') {
    input = (
      <select
        id={id}
        aria-describedby={describedBy}
        value={value === undefined ? '' : String(value)}
        onChange={(event) => {
          const chosen = control.options.find((o) => String(o) === event.target.value)
          onChange(chosen)
        }}
      >
        <option value="">(not set)</option>
        {control.options.map((option) => (
          <option key={String(option)} value={String(option)}>
            {String(option)}
          </option>
        ))}
      </select>
    )
  } else if (control.kind === 'boolean' && props.unsettable) {
    input = (
      <select
        id={id}
        aria-describedby={describedBy}
        value={value === undefined ? '' : String(value)}
        onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value === 'true')}
      >
        <option value="">(not set)</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    )
  } else if (control.kind === 'boolean') {
    input = (
      <input
        id={id}
        type="checkbox"
        aria-describedby={describedBy}
        checked={value === true}
        onChange={(event) => onChange(event.target.checked)}
      />
    )
  } else if (control.kind === 'text' && props.color) {
    input = (
      <ColorInput
        id={id}
        label={props.label}
        describedBy={describedBy}
        placeholder={props.placeholder}
        value={value === undefined ? '' : String(value)}
        fallback={props.color.fallback}
        onCommit={(text) => onChange(text === '' ? undefined : text)}
      />
    )
  } else if (control.kind === 'text' || control.kind === 'number') {
    input = (
      <CommitInput
        id={id}
        type={control.kind === 'number' ? 'number' : 'text'}
        aria-describedby={describedBy}
        placeholder={props.placeholder}
        value={value === undefined ? '' : String(value)}
        onCommit={(text) =>
          onChange(text === '' ? undefined : control.kind === 'number' ? Number(text) : text)
        }
      />
    )
  } else if (control.kind === 'object') {
    input = <JsonInput id={id} value={value} onCommit={onChange} describedBy={describedBy} />
  } else {
    input = (
      <span id={id} className="pg-muted">
        logged in the event log
      </span>
    )
  }
  return (
    <div className={`pg-control pg-control-${control.kind}${changed ? ' pg-changed' : ''}`}>
      <label htmlFor={id}>
        <code>{props.label}</code>
        {changed && <span className="pg-changed-mark"> (changed)</span>}
      </label>
      {input}
      {props.doc && (
        <span id={docId} className="pg-doc">
          {props.doc}
        </span>
      )}
    </div>
  )
}
