/**
 * @module The docs site's reference: one entry per widget prop, event and environment variable, each read
 * from the code's own types and tables and joined to the docs' words for it.
 * - Props: `OfferWidgetProps` as the playground's props table reads it (its type and JSDoc, extract-props.ts).
 * - Events: the members of the `OfferWidgetEvent` union (src/widget/events/widget-event.ts), each with the
 *   row of docs/events.md that says when it fires.
 * - Variables: the keys of the server's `envSchema` (src/server/config-env.ts), each with its row of
 *   docs/configuration.md (default and meaning).
 * - Attributes: the widget's options table (src/widget/widget-options.ts), one page per `data-*` attribute
 *   (the attribute the script tag's mount point and `<offer-widget>` take), with the table's words for what
 *   to write; a prop's page says them too.
 * A code entry without its docs row, or a row naming nothing in the code, is a drift: the build fails on it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { attributeOf } from '../src/embed/data-attributes.ts'
import { extractProps } from '../src/playground/props-doc/extract-props.ts'
import { envSchema } from '../src/server/config-env.ts'
import { WIDGET_OPTIONS, type WidgetOption, whatToWrite } from '../src/widget/widget-options.ts'

const ROOT = join(import.meta.dirname, '..')

export interface ReferenceEntry {
  kind: 'prop' | 'attribute' | 'event' | 'variable'
  name: string
  /** Markdown: what the code and the docs say of it. */
  body: string
}

export interface Reference {
  entries: ReferenceEntry[]
  /** Drifts between the code and the docs, one line each. */
  problems: string[]
}

/** Rows of the markdown tables in `doc` whose first cell names `names` in backticks: name -> cells. */
function docRows(doc: string): Map<string, string[]> {
  const rows = new Map<string, string[]>()
  for (const line of readFileSync(join(ROOT, doc), 'utf8').split('\n')) {
    if (!line.startsWith('| `')) continue
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      // A reference page stands two folders below docs/ (reference/<kind>/): the row's links follow it there.
      .map((cell) => cell.trim().replace(/\]\((?![a-z][a-z0-9+.-]*:|#|\/)/gi, '](../../'))
    for (const [, name] of (cells[0] ?? '').matchAll(/`([^`]+)`/g)) rows.set(name as string, cells)
  }
  return rows
}

const OPTIONS: readonly WidgetOption[] = WIDGET_OPTIONS

function props(): ReferenceEntry[] {
  const entry = join(ROOT, 'src/widget/index.ts')
  const { OfferWidgetProps } = extractProps(entry, ['OfferWidgetProps'])
  return OfferWidgetProps.map((prop) => {
    const option = OPTIONS.find(({ name }) => name === prop.name)
    // `search` is carried by one attribute per field (`data-zip-code`, ...).
    const carried = OPTIONS.filter(({ name, propOnly }) => !propOnly && name.split('.')[0] === prop.name)
    const links = carried.map(
      ({ name }) => `[\`data-${attributeOf(name)}\`](../attributes/data-${attributeOf(name)}.md)`,
    )
    return {
      kind: 'prop',
      name: prop.name,
      body: [
        `\`<OfferWidget ${prop.name}={…}>\`${prop.optional ? ' (optional)' : ''}`,
        `**Type:** \`${prop.type}\`${prop.expanded ? `, that is \`${prop.expanded}\`` : ''}`,
        prop.doc || '_Not described in the type._',
        option ? `**Write:** ${inline(whatToWrite(option, 'prop'))}.` : '',
        links.length > 0
          ? `**As ${links.length > 1 ? 'attributes' : 'an attribute'}:** ${links.join(', ')}.`
          : '',
        'See [the React guide](../../guides/react.md) and [the script tag guide](../../guides/script-tag.md) for how props and `data-*` attributes are written.',
      ]
        .filter(Boolean)
        .join('\n\n'),
    }
  })
}

/** Words with code in them (`"true" or "false"`, `{"heading":…}`) as Markdown text: quotes and braces kept. */
const inline = (words: string) => words.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`)

/** One page per attribute of the options table: where it goes, the option it sets, what to write. */
function attributes(): ReferenceEntry[] {
  return OPTIONS.filter((option) => !option.propOnly).map((option) => {
    const attribute = attributeOf(option.name)
    const [prop] = option.name.split('.') as [string]
    return {
      kind: 'attribute',
      name: `data-${attribute}`,
      body: [
        `\`<div data-offer-widget data-${attribute}="…">\` (the script tag) or \`<offer-widget ${attribute}="…">\``,
        `**Sets:** \`${option.name}\` (the [\`${prop}\`](../props/${prop}.md) prop).`,
        `**Write:** ${inline(whatToWrite(option, 'attribute'))}. Another value is ignored, with a console warning that says this.`,
        'See [the script tag guide](../../guides/script-tag.md#data-attributes).',
      ].join('\n\n'),
    }
  })
}

/** `{ type: 'x'; a: A }` members of the event union, with their JSDoc. */
function eventMembers(): Array<{ type: string; fields: string[]; doc: string }> {
  const path = join(ROOT, 'src/widget/events/widget-event.ts')
  const text = readFileSync(path, 'utf8')
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
  const alias = file.statements.find(
    (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'OfferWidgetEvent',
  )
  if (!alias || !ts.isUnionTypeNode(alias.type)) throw new Error('docs-reference: OfferWidgetEvent not found')
  return alias.type.types.filter(ts.isTypeLiteralNode).map((member) => {
    const fields = member.members.filter(ts.isPropertySignature)
    const typeField = fields.find((f) => f.name.getText(file) === 'type')
    const type = typeField?.type?.getText(file).replace(/'/g, '') ?? '?'
    // A member's JSDoc stands before its `|`, between the previous member (or the `=`) and it.
    const before = text.slice(previousEnd(alias, member), member.getStart(file))
    const doc = [...before.matchAll(/\/\*\*([\s\S]*?)\*\//g)].map((m) => (m[1] as string).trim()).join(' ')
    return { type, fields: fields.map((f) => f.getText(file).replace(/;$/, '')), doc }
  })
}

function previousEnd(alias: ts.TypeAliasDeclaration, member: ts.TypeNode): number {
  const types = (alias.type as ts.UnionTypeNode).types
  const index = types.indexOf(member)
  return index > 0 ? (types[index - 1] as ts.TypeNode).getEnd() : alias.name.getEnd()
}

function events(problems: string[]): ReferenceEntry[] {
  const rows = docRows('docs/events.md')
  const members = eventMembers()
  return members.map(({ type, fields, doc }) => {
    const row = rows.get(type)
    if (!row) problems.push(`event ${type}: no row in docs/events.md`)
    return {
      kind: 'event',
      name: type,
      body: [
        `\`{ ${fields.join('; ')} }\``,
        doc,
        row ? `**When it fires:** ${row[1]}\n\n**Payload:** ${row[2]}` : '',
        'Delivered to `onEvent` and, with `analytics="dataLayer"`, to `window.dataLayer` ([Events](../../events.md)).',
      ]
        .filter(Boolean)
        .join('\n\n'),
    }
  })
}

function variables(problems: string[]): ReferenceEntry[] {
  const rows = docRows('docs/configuration.md')
  const names = Object.keys(envSchema.shape)
  for (const name of rows.keys()) {
    if (/^[A-Z][A-Z0-9_]+$/.test(name) && !names.includes(name) && !name.startsWith('PARTNER_')) {
      problems.push(`variable ${name}: in docs/configuration.md but not read by envSchema`)
    }
  }
  return names.map((name) => {
    const row = rows.get(name)
    if (!row) problems.push(`variable ${name}: no row in docs/configuration.md`)
    return {
      kind: 'variable',
      name,
      body: [
        row ? `**Default:** ${row[1]}\n\n${row[2]}` : '',
        'Read once at start by `loadConfig()`; a bad value stops the start naming the variable and the fix ([Configuration](../../configuration.md)).',
      ]
        .filter(Boolean)
        .join('\n\n'),
    }
  })
}

export function buildReference(): Reference {
  const problems: string[] = []
  const entries = [...props(), ...attributes(), ...events(problems), ...variables(problems)]
  return { entries, problems }
}
