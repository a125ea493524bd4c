/**
 * House rules on who may import whom under src/ (issue 34), checked by `npm run check:deps` in `.ci/run`
 * and by test/scripts/dependency-rules.test.ts (which also shows each rule firing on a small fixture tree).
 * Each rule's comment says what it forbids and how to fix a violation. Paths are relative to the folder
 * the cruise runs from (the repository root), so every rule is anchored on `^src/`.
 *
 * `.cjs` because the package is `"type": "module"` (what `depcruise --init` writes for such a package).
 * No `no-orphans`: knip (`npm run check:dead`) already finds unused files.
 *
 * Type-only imports count (`tsPreCompilationDeps: true`): `import type { X } from '../bff/…'` in the
 * contract still ties the wire to the server, and a cycle through types still ties two modules together.
 */

/** Server rooms and loose server files: none of them is bundled for the browser. */
const SERVER = ['^src/(server|publisher|bff|marketplace|ledger|http|sandbox|partner-kit)/']

/**
 * Plain data tables from server rooms that the playground shows in the browser: the sandbox's scenarios
 * (with the partners they name), the partner kit's sample leads and the sandbox's consent texts. They import nothing but each other
 * and the contract (rule `browser-data-stays-browser-safe`), so bundling them is safe.
 */
const BROWSER_DATA = [
  '^src/sandbox/(scenarios|partners)[.]ts$',
  '^src/partner-kit/sample-leads[.]ts$',
  '^src/marketplace/consent/sandbox-texts[.]ts$',
]

/** The playground's Vite plugin (loaded by config/vite.site.config.ts, in Node at build time), not browser code. */
const PLAYGROUND_BUILD_TIME = '^src/playground/props-doc/(props-doc-plugin|extract-props)[.]ts$'

/**
 * The partner reports page's script: browser code in a server room (it is the page's, and served by it).
 * A server run from its sources serves it transpiled file by file, a built one as Vite's bundle
 * (docs/decisions/0102-report-page-build.md): the two are the same program only while it imports nothing.
 */
const REPORT_PAGE_SCRIPT = '^src/marketplace/reports/report-page-app[.]ts$'
/** The ledger's report shapes: interfaces only, which the page's script reads its API's answers as. */
const LEDGER_TYPES = '^src/ledger/report-types[.]ts$'

const BROWSER_FIX =
  'Fix: move what the browser needs into src/contract/ (shapes, schemas, pure predicates) and import it ' +
  'from there; a Node API has to stay on the server side (the BFF answers the browser over HTTP).'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles among our files, type-only imports included (there is no cycle of types only ' +
        'today, so there is nothing to exempt; a cycle of types still means the two modules cannot be ' +
        'understood or moved apart). Fix: move what both sides need (a constant, a type, a helper) into ' +
        'the module lower down, or into a small module of its own that both import.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'contract-imports-nothing-of-ours',
      severity: 'error',
      comment:
        'src/contract/ is the wire shared by the browser and the servers: it imports only src/contract/, ' +
        'zod, ipaddr.js (address checks) and isbot (the declared-bot test in the server-search schema, which the widget never imports) ' +
        'and no Node built-in (the widget bundles it). Fix: move the code it needs into ' +
        'src/contract/, or turn the dependency around (the other room imports the contract).',
      from: { path: '^src/contract/' },
      to: { pathNot: ['^src/contract/', '(^|/)node_modules/(zod|isbot|ipaddr[.]js)/'] },
    },
    {
      name: 'browser-imports-no-server',
      severity: 'error',
      comment: `Browser code (src/widget/, src/embed/) imports no server room (server, publisher, bff, marketplace, ledger, http, sandbox, partner-kit) and no Node built-in. ${BROWSER_FIX}`,
      from: { path: '^src/(widget|embed)/' },
      to: { path: SERVER },
    },
    {
      name: 'browser-imports-no-server',
      severity: 'error',
      comment: `Browser code (src/widget/, src/embed/) imports no Node built-in. ${BROWSER_FIX}`,
      from: { path: '^src/(widget|embed)/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'browser-imports-no-server',
      severity: 'error',
      comment: `The playground (browser code) imports no server room and no Node built-in, except the plain data tables it shows (the sandbox's scenarios, the partner kit's sample leads; see browser-data-stays-browser-safe). Its Vite plugin under props-doc/ runs in Node at build time and is not checked. ${BROWSER_FIX}`,
      from: { path: '^src/playground/', pathNot: PLAYGROUND_BUILD_TIME },
      to: { path: SERVER, pathNot: BROWSER_DATA },
    },
    {
      name: 'browser-imports-no-server',
      severity: 'error',
      comment: `The playground (browser code) imports no Node built-in; only its Vite plugin under props-doc/ (Node, build time) may. ${BROWSER_FIX}`,
      from: { path: '^src/playground/', pathNot: PLAYGROUND_BUILD_TIME },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'browser-imports-no-server',
      severity: 'error',
      comment: `The reports page's script (src/marketplace/reports/report-page-app.ts, browser code) imports nothing at run time: no module of ours, no package, no Node built-in; the page's server serves it as one file. Fix: write what it needs into it, or put the shared rule in src/contract/ and have the server give the page its result.`,
      from: { path: REPORT_PAGE_SCRIPT },
      to: { dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'browser-imports-no-server',
      severity: 'error',
      comment: `The reports page's script (browser code) takes types from no server module but the ledger's report shapes (src/ledger/report-types.ts, interfaces only), and nothing from Node. ${BROWSER_FIX}`,
      from: { path: REPORT_PAGE_SCRIPT },
      to: { path: SERVER, pathNot: LEDGER_TYPES },
    },
    {
      name: 'browser-imports-no-server',
      severity: 'error',
      comment: `The reports page's script (browser code) imports no Node built-in, not even its types. ${BROWSER_FIX}`,
      from: { path: REPORT_PAGE_SCRIPT },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'browser-data-stays-browser-safe',
      severity: 'error',
      comment:
        "The server rooms' data tables the playground bundles (src/sandbox/scenarios.ts and partners.ts, " +
        'src/partner-kit/sample-leads.ts) import only each other, src/contract/ and packages, and no Node ' +
        'built-in. Fix: keep server logic out of these tables (put it in another module of the room that ' +
        'imports the table), or stop the playground from importing the table.',
      from: { path: BROWSER_DATA },
      to: { pathNot: [...BROWSER_DATA, '^src/contract/', '(^|/)node_modules/'] },
    },
    {
      name: 'embed-reads-attributes-not-props',
      severity: 'error',
      comment:
        'The script-tag bundle (src/embed/) mounts the widget with options its own attribute reader has ' +
        "parsed (data-attributes.ts); the props parser at the npm package's door (src/widget/parse-props.ts, " +
        'src/widget/checked-widget.tsx) would only add bytes to a bundle with a budget. Fix: import ' +
        'OfferWidget from src/widget/OfferWidget.tsx, and put a rule both need into a module they share.',
      from: { path: '^src/embed/' },
      to: { path: '^src/widget/(parse-props[.]ts|checked-widget[.]tsx|index[.]ts)$' },
    },
    {
      name: 'marketplace-never-imports-bff',
      severity: 'error',
      comment:
        'The second look (src/marketplace/) is a service of its own and never imports the widget API ' +
        'server (src/bff/). Fix: move what both use into src/http/ (server plumbing) or src/contract/ (the ' +
        'wire), and import it from there.',
      from: { path: '^src/marketplace/' },
      to: { path: '^src/bff/' },
    },
    {
      name: 'marketplace-imports-no-partner-kit',
      severity: 'error',
      comment:
        "The partner kit (src/partner-kit/) is the partners' side: its checker judges replies with the " +
        "marketplace's own rules, and its simulated partners answer the marketplace over HTTP, so the kit " +
        'imports the marketplace and never the other way round. Fix: the server hands the marketplace what ' +
        'it needs of the kit (as `resolvePartnerRegistry` takes `startSimulated`), or the shared data moves ' +
        'down into src/marketplace/ or src/contract/.',
      from: { path: '^src/marketplace/' },
      to: { path: '^src/partner-kit/' },
    },
    {
      name: 'publisher-enters-bff-by-its-door',
      severity: 'error',
      comment:
        "What a publisher's own server imports (src/publisher/) reaches the widget API only through its " +
        'door, src/bff/index.ts (the `offer-widget-server/bff` surface), never a module behind it. Fix: ' +
        'export what is needed from src/bff/index.ts, or move the shared rule into src/http/ or src/contract/.',
      from: { path: '^src/publisher/' },
      to: { path: '^src/bff/', pathNot: '^src/bff/index[.]ts$' },
    },
    {
      name: 'server-is-the-top',
      severity: 'error',
      comment:
        'src/server/ is the Node process (start, config, lifecycle, static hosting, telemetry set-up): it ' +
        'composes the other rooms, and no other room imports it, not even its types. A room declares the ' +
        'options it reads (the BFF: `BffConfig`, src/bff/bff-config.ts) and the server hands them in. Fix: ' +
        'pass what a room needs in as an argument or option, or move the shared code down into src/http/ ' +
        '(plumbing) or the room that owns it.',
      from: { path: '^src/', pathNot: '^src/server/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'bff-imports-no-publisher',
      severity: 'error',
      comment:
        'The widget API (src/bff/) never imports the publisher helpers (src/publisher/), which import it: ' +
        'the arrow goes one way. Fix: move what both need into src/http/ or src/contract/.',
      from: { path: '^src/(bff|marketplace)/' },
      to: { path: '^src/publisher/' },
    },
    {
      name: 'ledger-imports-no-feature',
      severity: 'error',
      comment:
        'The ledger (src/ledger/, the database) imports no feature: not src/bff/, src/marketplace/ or ' +
        'src/sandbox/. Fix: the feature passes what the ledger needs as arguments, or the shared type moves ' +
        'into src/ledger/ (or src/contract/) and the feature imports it from there.',
      from: { path: '^src/ledger/' },
      to: { path: '^src/(bff|marketplace|sandbox)/' },
    },
    {
      name: 'http-is-plumbing',
      severity: 'error',
      comment:
        'src/http/ is server plumbing shared by the servers: it imports none of src/server/, ' +
        'src/publisher/, src/bff/, src/marketplace/, src/ledger/ or src/sandbox/. Fix: pass the feature in ' +
        '(a callback, an interface declared in src/http/), or move the code into the room that uses it.',
      from: { path: '^src/http/' },
      to: { path: '^src/(server|publisher|bff|marketplace|ledger|sandbox)/' },
    },
  ],
  options: {
    // Packages are checked by name only, never cruised.
    doNotFollow: { path: ['(^|/)node_modules/'] },
    // Type-only imports are dependencies too (see the top of this file).
    tsPreCompilationDeps: true,
    // The compiler options of the project (moduleResolution Bundler, allowImportingTsExtensions, jsx):
    // imports are written `./x.ts` and resolve as the file they name.
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    // Only what the rules above need: faster, and no metrics nobody reads.
    skipAnalysisNotInRules: true,
  },
}
