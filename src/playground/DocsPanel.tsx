/**
 * @module The Docs panel: the story's description in both modes, then the props table of `<OfferWidget>`
 * and of its `search` and `attach` objects, generated at build time from the widget's exported types
 * (props-doc), with each prop's current value in this story.
 */
import type { PropsDocs } from './ControlsPanel.tsx'
import type { PropDoc } from './props-doc/prop-doc.ts'
import { storyBackendText } from './stories.ts'
import type { Story } from './story.ts'
import { argAt, type WidgetArgs } from './widget-args.ts'

export interface DocsPanelProps {
  story: Story
  docs: PropsDocs
  args: WidgetArgs
}

function current(value: unknown): string {
  if (value === undefined) return ''
  const text = JSON.stringify(value)
  return text.length > 80 ? `${text.slice(0, 77)}…` : text
}

function PropsTable({
  caption,
  props,
  prefix,
  args,
}: {
  caption: string
  props: PropDoc[]
  prefix: string
  args: WidgetArgs
}) {
  return (
    <table className="pg-props">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Description</th>
          <th scope="col">Here</th>
        </tr>
      </thead>
      <tbody>
        {props.map((prop) => (
          <tr key={prop.name}>
            <th scope="row">
              <code>
                {prop.name}
                {prop.optional ? '?' : ''}
              </code>
            </th>
            <td>
              <code>{prop.type}</code>
              {prop.expanded && (
                <>
                  <br />
                  <code className="pg-muted">{prop.expanded}</code>
                </>
              )}
            </td>
            <td>{prop.doc}</td>
            <td>
              <code>{current(argAt(args, `${prefix}${prop.name}`))}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function DocsPanel({ story, docs, args }: DocsPanelProps) {
  return (
    <div className="pg-docs">
      <h3>{story.title}</h3>
      <p>{story.summary}</p>
      <dl>
        <dt>msw mode</dt>
        <dd>{storyBackendText(story, 'msw')}</dd>
        <dt>Real BFF mode</dt>
        <dd>{storyBackendText(story, 'bff')}</dd>
      </dl>
      <PropsTable caption="OfferWidget props" props={docs.OfferWidgetProps} prefix="" args={args} />
      <PropsTable caption="search (SearchData)" props={docs.SearchData} prefix="search." args={args} />
      <PropsTable
        caption="attach (AttachedSearch)"
        props={docs.AttachedSearch}
        prefix="attach."
        args={args}
      />
    </div>
  )
}
