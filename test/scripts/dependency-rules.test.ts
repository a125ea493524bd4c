/**
 * @module The house rules on who imports whom under src/ (config/dependency-cruiser.cjs, `npm run check:deps`):
 * today's src keeps all of them, and each one bites, on a small fixture tree of one breach per rule written
 * to a temporary folder (with imports that are allowed beside them, which must stay quiet). Cruised through
 * dependency-cruiser's API the way its CLI does it: the config's options, and the tsconfig's compiler options.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { cruise, type ICruiseResult } from 'dependency-cruiser'
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options'
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')

/** `rule: from → to` for each violation, sorted. */
async function violations(baseDir: string): Promise<{ found: string[]; result: ICruiseResult }> {
  const options = await extractDepcruiseOptions(join(ROOT, 'config/dependency-cruiser.cjs'))
  const tsConfig = extractTSConfig(join(ROOT, 'tsconfig.json'))
  // bustTheCache: each cruise gets a resolver of its own (two base folders in one process).
  const { output } = await cruise(['src'], { ...options, baseDir }, { bustTheCache: true }, { tsConfig })
  const result = output as ICruiseResult
  const found = (result.summary.violations ?? []).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)
  return { found: found.sort(), result }
}

describe('dependency rules (config/dependency-cruiser.cjs)', () => {
  it('today’s src breaks none of them, with every import of ours resolved', { timeout: 30_000 }, async () => {
    const { found, result } = await violations(ROOT)
    expect(found).toEqual([])
    // The `./x.ts` imports resolve to the files (an unresolved import would slip past every path rule);
    // the only one left is the playground's virtual module, which its Vite plugin serves.
    const unresolved = result.modules.flatMap((m) =>
      m.dependencies.filter((d) => d.couldNotResolve).map((d) => `${m.source} → ${d.module}`),
    )
    expect(unresolved).toEqual(['src/playground/main.tsx → virtual:offer-widget-props'])
    const widget = result.modules.find((m) => m.source === 'src/widget/index.ts')
    expect(widget?.dependencies.some((d) => d.resolved.startsWith('src/contract/'))).toBe(true)
    expect(result.summary.totalCruised).toBeGreaterThan(300)
  })

  describe('on a fixture tree', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dependency-rules-'))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))
    const files: Record<string, string> = {
      // Packages: anyone may import them, but the contract only zod, ipaddr.js and isbot.
      'node_modules/some-package/index.js': 'export const p = 1\n',
      'node_modules/zod/index.js': 'export const z = 1\n',
      'src/contract/ok.ts': "import { z } from 'zod'\nexport const ok = z\n",
      'src/contract/package.ts': "import { p } from 'some-package'\nexport const pk = p\n",
      // The contract imports the BFF, once for a value and once for a type only: both are breaches.
      'src/contract/x.ts':
        "import { ok } from './ok.ts'\nimport { y } from '../bff/y.ts'\nexport const x = [ok, y]\n",
      'src/contract/types.ts': "import type { Y } from '../bff/y.ts'\nexport type T = Y\n",
      'src/contract/node.ts': "import { join } from 'node:path'\nexport const n = join\n",
      'src/bff/y.ts': "import { ok } from '../contract/ok.ts'\nexport type Y = number\nexport const y = ok\n",
      'src/bff/b.ts': 'export const b = 1\n',
      'src/marketplace/a.ts': "import { b } from '../bff/b.ts'\nexport const a = b\n",
      // A cycle of two files (reported once, from its first file).
      'src/marketplace/one.ts': "import { two } from './two.ts'\nexport const one = () => two\n",
      'src/marketplace/two.ts': "import { one } from './one.ts'\nexport const two = () => one\n",
      'src/ledger/l.ts': "import { a } from '../marketplace/a.ts'\nexport const l = a\n",
      'src/http/h.ts': "import { l } from '../ledger/l.ts'\nexport const h = l\n",
      'src/widget/w.ts':
        "import { h } from '../http/h.ts'\nimport { x } from '../contract/x.ts'\nexport const w = [h, x]\n",
      'src/embed/e.ts':
        "import { readFileSync } from 'node:fs'\nimport { w } from '../widget/w.ts'\nexport const e = [readFileSync, w]\n",
      // The script tag mounts the widget itself, never through the npm package's props parser.
      'src/widget/parse-props.ts': 'export const parseProps = 1\n',
      'src/widget/OfferWidget.tsx': 'export const OfferWidget = 1\n',
      'src/embed/mount.tsx':
        "import { OfferWidget } from '../widget/OfferWidget.tsx'\nimport { parseProps } from '../widget/parse-props.ts'\nexport const mount = [OfferWidget, parseProps]\n",
      'src/sandbox/faults.ts':
        "import { createServer } from 'node:http'\nexport const faults = createServer\n",
      'src/sandbox/partners.ts': "import { faults } from './faults.ts'\nexport const partners = [faults]\n",
      'src/sandbox/scenarios.ts':
        "import { partners } from './partners.ts'\nexport const scenarios = partners\n",
      // The playground may show the sandbox's scenarios, not import the rest of the sandbox.
      'src/playground/stories.ts':
        "import { scenarios } from '../sandbox/scenarios.ts'\nimport { faults } from '../sandbox/faults.ts'\nexport const stories = [scenarios, faults]\n",
      'src/playground/clock.ts':
        "import { setTimeout } from 'node:timers/promises'\nexport const clock = setTimeout\n",
      // The partner kit imports the marketplace's rules; the marketplace never imports the kit.
      'src/partner-kit/k.ts': "import { a } from '../marketplace/a.ts'\nexport const k = a\n",
      'src/marketplace/m.ts': "import { k } from '../partner-kit/k.ts'\nexport const m = k\n",
      // The publisher helpers enter the BFF by its door only; the BFF never imports them.
      'src/bff/index.ts': "export { b } from './b.ts'\n",
      'src/publisher/door.ts': "import { b } from '../bff/index.ts'\nexport const door = b\n",
      'src/publisher/inside.ts': "import { b } from '../bff/b.ts'\nexport const inside = b\n",
      'src/bff/c.ts': "import { door } from '../publisher/door.ts'\nexport const c = door\n",
      // The server composes everything; nothing imports it, not even the types of its config.
      'src/server/config.ts':
        'export type Config = { port: number }\nexport const loadConfig = () => ({ port: 1 })\n',
      'src/server/start.ts':
        "import { b } from '../bff/index.ts'\nimport { door } from '../publisher/door.ts'\nimport { loadConfig } from './config.ts'\nexport const start = [b, door, loadConfig]\n",
      'src/sandbox/typed.ts':
        "import type { Config } from '../server/config.ts'\nexport type Typed = Config\n",
      'src/sandbox/reads.ts':
        "import { loadConfig } from '../server/config.ts'\nexport const reads = loadConfig\n",
      'src/sandbox/starts.ts': "import { start } from '../server/start.ts'\nexport const starts = start\n",
      // The reports page's script: types from the ledger's report shapes only, nothing at run time.
      'src/ledger/report-types.ts': 'export interface Report { n: number }\n',
      'src/marketplace/reports/report-page-app.ts':
        "import type { Report } from '../../ledger/report-types.ts'\nimport type { l } from '../../ledger/l.ts'\nimport { ok } from '../../contract/ok.ts'\nexport const r: Report | typeof l = { n: ok }\n",
      // Its Vite plugin runs in Node at build time.
      'src/playground/props-doc/props-doc-plugin.ts':
        "import { fileURLToPath } from 'node:url'\nexport const plugin = fileURLToPath\n",
    }
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), text)
    }

    it('finds exactly the breaches, each under its rule', { timeout: 30_000 }, async () => {
      const { found } = await violations(dir)
      expect(found).toEqual(
        [
          'contract-imports-nothing-of-ours: src/contract/x.ts → src/bff/y.ts',
          'contract-imports-nothing-of-ours: src/contract/types.ts → src/bff/y.ts',
          'contract-imports-nothing-of-ours: src/contract/node.ts → path',
          'marketplace-never-imports-bff: src/marketplace/a.ts → src/bff/b.ts',
          'marketplace-imports-no-partner-kit: src/marketplace/m.ts → src/partner-kit/k.ts',
          'no-circular: src/marketplace/one.ts → src/marketplace/two.ts',
          'ledger-imports-no-feature: src/ledger/l.ts → src/marketplace/a.ts',
          'http-is-plumbing: src/http/h.ts → src/ledger/l.ts',
          'browser-imports-no-server: src/widget/w.ts → src/http/h.ts',
          'browser-imports-no-server: src/embed/e.ts → fs',
          'embed-reads-attributes-not-props: src/embed/mount.tsx → src/widget/parse-props.ts',
          'browser-imports-no-server: src/playground/stories.ts → src/sandbox/faults.ts',
          'browser-imports-no-server: src/playground/clock.ts → timers/promises',
          'browser-data-stays-browser-safe: src/sandbox/partners.ts → src/sandbox/faults.ts',
          'contract-imports-nothing-of-ours: src/contract/package.ts → node_modules/some-package/index.js',
          'publisher-enters-bff-by-its-door: src/publisher/inside.ts → src/bff/b.ts',
          'bff-imports-no-publisher: src/bff/c.ts → src/publisher/door.ts',
          'server-is-the-top: src/sandbox/reads.ts → src/server/config.ts',
          'server-is-the-top: src/sandbox/typed.ts → src/server/config.ts',
          'server-is-the-top: src/sandbox/starts.ts → src/server/start.ts',
          'browser-imports-no-server: src/marketplace/reports/report-page-app.ts → src/contract/ok.ts',
          'browser-imports-no-server: src/marketplace/reports/report-page-app.ts → src/ledger/l.ts',
        ].sort(),
      )
    })
  })
})
