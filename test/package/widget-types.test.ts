/**
 * @module The widget package's types as a TypeScript app gets them (the tarball installed with React 19 and
 * its types, checked by the repository's TypeScript): `offer-widget/element` brings `window.OfferWidget`,
 * `<offer-widget>` in `HTMLElementTagNameMap` with typed events, and JSX `<offer-widget>`; the component
 * takes a label pack from `offer-widget/labels`. `@ts-expect-error` lines prove the types are not `any`.
 */
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO, removeScratch, scratchProject, tarball } from './support/scratch-project.ts'

const execFileAsync = promisify(execFile)

const CONSUMER = `
import type {} from 'offer-widget/element'
import { defineOfferWidgetElement } from 'offer-widget/element'
import { OfferWidget } from 'offer-widget'
import { LABELS_ES_US } from 'offer-widget/labels'

defineOfferWidgetElement()
const element = document.querySelector('offer-widget')
element?.addEventListener('offer-click', (event) => console.log(event.detail.uuid))
element?.addEventListener('complete', (event) => console.log(event.detail.offerCount))
// @ts-expect-error: an offer has no such field
element?.addEventListener('offer-click', (event) => console.log(event.detail.notAField))
if (element) element.options = { source: 'second-look' }
const api = window.OfferWidget
if (api && 'version' in api) api.mount('#quotes', { search: { zipCode: '94107' } })

export const page = (
  <>
    <offer-widget zip-code="94107" theme="dark" endpoint="https://offers.example.com" />
    {/* @ts-expect-error: theme is light or dark */}
    <offer-widget theme="purple" />
    <OfferWidget labels={LABELS_ES_US} search={{ zipCode: '94107' }} />
  </>
)
`

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    module: 'ESNext',
    moduleResolution: 'Bundler',
    jsx: 'react-jsx',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: [],
  },
  include: ['consumer.tsx'],
}

let dir = ''
beforeAll(() => {
  dir = scratchProject('offer-widget-types', [
    tarball('offer-widget'),
    'react@19',
    'react-dom@19',
    '@types/react@19',
    '@types/react-dom@19',
  ])
})
afterAll(() => removeScratch(dir))

describe('offer-widget types in a TypeScript app', () => {
  it('type-checks the element, the script-tag global, JSX and the label packs, and refuses misuse', async () => {
    writeFileSync(join(dir, 'consumer.tsx'), CONSUMER)
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG))
    const tsc = join(REPO, 'node_modules/typescript/bin/tsc')
    const result = await execFileAsync(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    )
    expect(result).toBe('')
  })
})
