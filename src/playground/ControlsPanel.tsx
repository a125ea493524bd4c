/**
 * @module The Controls panel: a control for every prop of `<OfferWidget>` the script tag takes, grouped,
 * built from the widget's exported types (props-doc) so a new prop gets a control without a change here;
 * object props edited field by field (search, attach, every label, every `--ow-*` variable, a colour picker
 * beside each colour). Reset returns to the story's args.
 */
import { DEFAULT_LABELS } from '../widget/index.ts'
import widgetCss from '../widget/styles.css?inline'
import { THEME_VARIABLES } from '../widget/theme.ts'
import { ArgControl } from './ArgControl.tsx'
import { presetDefaults } from './color-value.ts'
import type { PropDoc } from './props-doc/prop-doc.ts'
import { argAt, type WidgetArgs } from './widget-args.ts'

export interface PropsDocs {
  OfferWidgetProps: PropDoc[]
  SearchData: PropDoc[]
  AttachedSearch: PropDoc[]
}

export interface ControlsPanelProps {
  docs: PropsDocs
  /** The story's args (what Reset returns to). */
  storyArgs: WidgetArgs
  args: WidgetArgs
  changedCount: number
  onChange: (path: string, value: unknown) => void
  onReset: () => void
}

const GROUPS = ['Data', 'Behaviour', 'Appearance', 'Theme variables', 'Labels', 'Other'] as const
type Group = (typeof GROUPS)[number]

const GROUP_OF: Record<string, Group> = {
  endpoint: 'Data',
  source: 'Data',
  search: 'Data',
  lead: 'Data',
  attach: 'Data',
  form: 'Behaviour',
  preview: 'Behaviour',
  emptyState: 'Behaviour',
  theme: 'Appearance',
  headingLevel: 'Appearance',
  className: 'Appearance',
  nonce: 'Appearance',
  themeVariables: 'Theme variables',
  labels: 'Labels',
}

/** Props the embed sets itself: not args of a script-tag widget. */
const EMBED_OWNED: Record<string, string> = {
  injectStyles: 'the embed adopts the CSS into its shadow root',
  pixelTracker: 'the embed uses the page-wide tracker (each pixel once per page view)',
}

const text: PropDoc['control'] = { kind: 'text' }

interface Field {
  path: string
  label: string
  doc: string
  control: PropDoc['control']
  unsettable: boolean
  placeholder?: string
  color?: { fallback: string | undefined }
}

/** The controls of one prop: one, or one per field of an object prop edited field by field. */
function fieldsOf(prop: PropDoc, docs: PropsDocs, args: WidgetArgs): Field[] {
  const nested = (fields: PropDoc[]) =>
    fields.map((f) => ({
      path: `${prop.name}.${f.name}`,
      label: `${prop.name}.${f.name}`,
      doc: f.doc,
      control: f.control,
      unsettable: f.optional,
    }))
  if (prop.name === 'search') return nested(docs.SearchData)
  // `attach.rateTable` is the server's create answer (server rendering), data no one types: the docs list it.
  if (prop.name === 'attach') return nested(docs.AttachedSearch.filter((f) => f.control.kind !== 'object'))
  if (prop.name === 'labels') {
    return Object.entries(DEFAULT_LABELS).map(([key, fallback]) => ({
      path: `labels.${key}`,
      label: key,
      doc: '',
      control: text,
      unsettable: true,
      placeholder: fallback,
    }))
  }
  if (prop.name === 'themeVariables') {
    // A colour's picker shows the preset's own colour while the variable is unset.
    const defaults = presetDefaults(widgetCss, args.theme === 'dark' ? 'dark' : 'light')
    return THEME_VARIABLES.map((name) => ({
      path: `themeVariables.${name}`,
      label: name,
      doc: '',
      control: text,
      unsettable: true,
      placeholder: 'theme default',
      ...(name.startsWith('--ow-color-') && { color: { fallback: defaults[name] } }),
    }))
  }
  return [{ path: prop.name, label: prop.name, doc: prop.doc, control: prop.control, unsettable: false }]
}

export function ControlsPanel({
  docs,
  storyArgs,
  args,
  changedCount,
  onChange,
  onReset,
}: ControlsPanelProps) {
  const props = docs.OfferWidgetProps
  const controlled = props.filter((p) => p.control.kind !== 'callback' && !(p.name in EMBED_OWNED))
  const callbacks = props.filter((p) => p.control.kind === 'callback')
  const owned = props.filter((p) => p.name in EMBED_OWNED)
  return (
    <div className="pg-controls">
      <div className="pg-controls-bar">
        <button type="button" onClick={onReset} disabled={changedCount === 0}>
          Reset to story defaults
        </button>
        <span className="pg-muted" aria-live="polite">
          {changedCount === 0 ? 'Story defaults' : `${changedCount} changed`}
        </span>
      </div>
      {GROUPS.map((group) => {
        const members = controlled.filter((p) => (GROUP_OF[p.name] ?? 'Other') === group)
        if (members.length === 0) return null
        const fields = members.flatMap((p) => fieldsOf(p, docs, args))
        return (
          <details key={group} className="pg-group" open={group !== 'Labels' && group !== 'Theme variables'}>
            <summary>
              {group} <span className="pg-muted">({fields.length})</span>
            </summary>
            {fields.map((field) => (
              <ArgControl
                key={field.path}
                {...field}
                value={argAt(args, field.path)}
                storyValue={argAt(storyArgs, field.path)}
                onChange={(value) => onChange(field.path, value)}
              />
            ))}
          </details>
        )
      })}
      <details className="pg-group">
        <summary>
          Not controls <span className="pg-muted">({callbacks.length + owned.length})</span>
        </summary>
        <ul className="pg-plain">
          {callbacks.map((p) => (
            <li key={p.name}>
              <code>{p.name}</code>: the playground passes one that writes the event log.
            </li>
          ))}
          {owned.map((p) => (
            <li key={p.name}>
              <code>{p.name}</code>: not a script-tag option; {EMBED_OWNED[p.name]}.
            </li>
          ))}
        </ul>
      </details>
    </div>
  )
}
