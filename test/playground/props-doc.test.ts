// @vitest-environment node
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { extractProps } from '../../src/playground/props-doc/extract-props.ts'

describe('props doc', () => {
  it('reads names, types as written, JSDoc and the control kind of an exported interface', () => {
    const dir = mkdtempSync(join(tmpdir(), 'props-doc-'))
    const entry = join(dir, 'index.ts')
    writeFileSync(
      entry,
      [
        "export type Mode = 'a' | 'b'",
        'interface Props {',
        '  /** The mode. */',
        '  mode?: Mode',
        '  level: 2 | 3',
        '  /** Shown when set. */',
        '  flag?: boolean',
        '  name?: string',
        '  count?: number',
        '  nested?: { x: string }',
        '  onDone?: (n: number) => void',
        '}',
        'export type { Props }',
      ].join('\n'),
    )
    const { Props } = extractProps(entry, ['Props'])
    expect(Props).toEqual([
      {
        name: 'mode',
        type: 'Mode',
        expanded: '"a" | "b"',
        optional: true,
        doc: 'The mode.',
        control: { kind: 'select', options: ['a', 'b'] },
      },
      {
        name: 'level',
        type: '2 | 3',
        expanded: undefined,
        optional: false,
        doc: '',
        control: { kind: 'select', options: [2, 3] },
      },
      {
        name: 'flag',
        type: 'boolean',
        expanded: undefined,
        optional: true,
        doc: 'Shown when set.',
        control: { kind: 'boolean' },
      },
      {
        name: 'name',
        type: 'string',
        expanded: undefined,
        optional: true,
        doc: '',
        control: { kind: 'text' },
      },
      {
        name: 'count',
        type: 'number',
        expanded: undefined,
        optional: true,
        doc: '',
        control: { kind: 'number' },
      },
      {
        name: 'nested',
        type: '{ x: string }',
        expanded: undefined,
        optional: true,
        doc: '',
        control: { kind: 'object' },
      },
      {
        name: 'onDone',
        type: '(n: number) => void',
        expanded: undefined,
        optional: true,
        doc: '',
        control: { kind: 'callback' },
      },
    ])
    expect(() => extractProps(entry, ['Missing'])).toThrow(/does not export Missing/)
  }, 60_000)

  it("reads the widget's own OfferWidgetProps, SearchData and AttachedSearch", () => {
    const docs = extractProps(resolve('src/widget/index.ts'), [
      'OfferWidgetProps',
      'SearchData',
      'AttachedSearch',
    ])
    const prop = (name: string) => docs.OfferWidgetProps.find((p) => p.name === name)
    expect(prop('theme')?.control).toEqual({ kind: 'select', options: ['light', 'dark'] })
    expect(prop('headingLevel')?.control).toEqual({ kind: 'select', options: [2, 3, 4, 5] })
    expect(prop('preview')?.control).toEqual({ kind: 'boolean' })
    expect(prop('endpoint')?.doc).toMatch(/BFF/)
    expect(prop('onOfferClick')?.control.kind).toBe('callback')
    expect(docs.SearchData.map((p) => p.name)).toContain('zipCode')
    expect(docs.AttachedSearch.map((p) => p.name).sort()).toEqual(['accessToken', 'rateTable', 'uuid'])
  }, 60_000)
})
