/**
 * @module The widget package's types as a TypeScript app gets them (the tarball installed with React 19 and
 * its types, checked by the repository's TypeScript): `offer-widget/element` brings `window.OfferWidget`,
 * `<offer-widget>` in `HTMLElementTagNameMap` with typed events, and JSX `<offer-widget>`; the component
 * takes a label pack from `offer-widget/labels`. And in an app without React's types (Vue, Angular,
 * Svelte), `offer-widget/loader` as README's example uses it. `@ts-expect-error` lines prove the types are
 * not `any`.
 */
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { block } from '../docs/support/readme-blocks.ts'
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

/** README's loader block as is, then the API's misuse, which must not type-check. */
const LOADER_CONSUMER = `${block('loader').code}
handle?.update({ theme: 'dark' })
export const version: string | undefined = api?.version
// @ts-expect-error: the API has no such method
api?.mountEverywhere('#offers')
// @ts-expect-error: theme is light or dark
api?.mount('#offers', { theme: 'purple' })
// @ts-expect-error: src is required
loadOfferWidget({ integrity: manifest.integrity })
`

/** The repository's TypeScript on the project in `dir`: its errors, '' when there are none. */
async function typeCheck(dir: string, file: string, source: string, tsconfig: object): Promise<string> {
  writeFileSync(join(dir, file), source)
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig))
  const tsc = join(REPO, 'node_modules/typescript/bin/tsc')
  return execFileAsync(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  )
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
    expect(await typeCheck(dir, 'consumer.tsx', CONSUMER, TSCONFIG)).toBe('')
  })
})

describe('offer-widget/loader in a TypeScript app without React', () => {
  let plain = ''
  // The tarball alone, as a Vue, Angular or Svelte app installs it: no React types.
  beforeAll(() => {
    plain = scratchProject('offer-widget-loader-types', [tarball('offer-widget')])
  })
  afterAll(() => removeScratch(plain))

  it("type-checks README's example (the manifest's file and hash, mount, the handle) and refuses misuse", async () => {
    const tsconfig = {
      compilerOptions: {
        ...TSCONFIG.compilerOptions,
        jsx: undefined,
        resolveJsonModule: true,
        // As those frameworks' project templates set it: the package's React declarations are not checked.
        skipLibCheck: true,
      },
      include: ['consumer.ts'],
    }
    expect(await typeCheck(plain, 'consumer.ts', LOADER_CONSUMER, tsconfig)).toBe('')
  })
})
