/**
 * @module The one table of the entry points the two published packages export with types: each subpath,
 * the JavaScript `npm run build` makes for it and its declarations, all under `dist/`. `scripts/pack.ts`
 * writes each package's `exports` from it, and `scripts/api-report.ts` makes API Extractor's config for
 * each entry from it (on `etc/api-extractor/{widget,server}.base.json`) and names its report in `etc/api/`.
 * A new entry point is one row here.
 */

export interface PackageEntry {
  /** The subpath in the package's `exports`: `.`, `./element`... */
  subpath: string
  /** The built JavaScript, from the repository root. */
  import: string
  /** Its declarations, from the repository root. */
  types: string
}

/** The server's entries are its compiled modules: `dist/server/<module>.js` beside its `.d.ts`. */
const serverEntry = (subpath: string, module: string): PackageEntry => ({
  subpath,
  import: `dist/server/${module}.js`,
  types: `dist/server/${module}.d.ts`,
})

export const PACKAGE_ENTRIES = {
  'offer-widget': [
    { subpath: '.', import: 'dist/index.js', types: 'dist/types/widget/index.d.ts' },
    { subpath: './element', import: 'dist/element.js', types: 'dist/types/embed/element.d.ts' },
    { subpath: './labels', import: 'dist/labels.js', types: 'dist/types/widget/labels-entry.d.ts' },
    { subpath: './loader', import: 'dist/loader.js', types: 'dist/types/embed/load-offer-widget.d.ts' },
  ],
  'offer-widget-server': [
    serverEntry('.', 'server/index'),
    serverEntry('./bff', 'bff/index'),
    serverEntry('./marketplace', 'marketplace/index'),
    serverEntry('./ledger', 'ledger/index'),
    serverEntry('./sandbox', 'sandbox/index'),
    serverEntry('./partner-kit', 'partner-kit/index'),
  ],
} as const satisfies Record<string, readonly PackageEntry[]>

export type PackageName = keyof typeof PACKAGE_ENTRIES

/** `exports` entries with types, as a package.json writes them (paths from the package's root). */
export function typedExports(name: PackageName): Record<string, { types: string; import: string }> {
  return Object.fromEntries(
    PACKAGE_ENTRIES[name].map((entry) => [
      entry.subpath,
      { types: `./${entry.types}`, import: `./${entry.import}` },
    ]),
  )
}

/** The API report's name for an entry: the package's name, then the subpath's (`offer-widget.element`). */
export function reportName(name: PackageName, subpath: string): string {
  return subpath === '.' ? name : `${name}.${subpath.replace(/^\.\//, '')}`
}
