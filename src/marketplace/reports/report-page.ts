/**
 * @module The `/reports` page: self-contained (no external assets) and CSP-friendly (no inline script or
 * style: its script, `report-page-app.ts`, and its stylesheet are served as routes of their own). The
 * script asks for the reports token, fetches a partner's report from the JSON API and draws it.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packageRoot } from '../../http/package-root.ts'

export const REPORT_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

export function reportPageHtml(basePath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Partner reports · second-look marketplace</title>
<link rel="stylesheet" href="${basePath}/reports/app.css">
<script type="module" src="${basePath}/reports/app.js"></script>
</head>
<body>
<main>
<h1>Partner reports</h1>
<form id="query">
  <label class="wide">Reports token <input id="token" type="password" autocomplete="off" required></label>
  <label class="wide">Partner <select id="partner" required><option value="">Enter the token first</option></select></label>
  <label>From (UTC day) <input id="from" type="date"></label>
  <label>To (UTC day, included) <input id="to" type="date"></label>
  <button type="submit">Show report</button>
  <button type="button" id="show-placements">Placements (operator)</button>
</form>
<p id="status" role="status"></p>
<section id="placements-report" hidden>
  <h2>Placements per UTC day</h2>
  <p class="note">The publisher's spots, with the operator's token (docs/placements.md). Insurance: searches created, completed (no partner left pending), offers the widget showed and clicked, once each per search. Second look: leads, offers shown (unique impressions), unique clicks, and earnings in USD (clicked bids under a per-click contract, converted leads' bids under a per-conversion one). (none): searches and leads without a placement.</p>
  <div class="scroll"><table id="placements" data-empty="No searches or leads in this range."><thead><tr><th colspan="2"></th><th class="group" colspan="4" scope="colgroup">Insurance</th><th class="group" colspan="4" scope="colgroup">Second look</th></tr><tr><th>Day (UTC)</th><th>Placement</th><th class="num">Searches</th><th class="num">Completed</th><th class="num">Offers shown</th><th class="num">Clicks</th><th class="num">Leads</th><th class="num">Offers shown</th><th class="num">Clicks</th><th class="num">Earnings (USD)</th></tr></thead><tbody></tbody></table></div>
</section>
<section id="report" hidden>
  <p class="note">Amounts are in US dollars (USD): bids, average bids and conversion amounts.</p>
  <dl id="figures"></dl>
  <h2>Per UTC day, <span id="range"></span></h2>
  <div id="chart" class="charts"></div>
  <h2>Spend per UTC day</h2>
  <p class="note">What you owe for the leads sent each day: your clicked offers' bids under a per-click contract, or the bid of the offer each converted lead saw under a per-conversion one.</p>
  <div class="scroll"><table id="spend" data-empty="No leads in this range."><thead><tr><th>Day (UTC)</th><th class="num">Spend (USD)</th><th class="num">Unique clicks</th><th class="num">Conversions</th></tr></thead><tbody></tbody></table></div>
  <h2>Your leads by state, credit, purpose and amount</h2>
  <p class="note">With offers: responses with at least one offer; shown: offers displayed; clicks: unique clicks; avg bid in USD. Amount bands: under $1K, $1K–5K, $5K–10K, $10K–25K, $25K–50K, $50K and over; not_given when the lead had no amount. Placement: the publisher's spot, (none) when it named none, not_shared unless the partner is sent placements.</p>
  <h3>By state</h3>
  <div class="scroll"><table id="by-state" data-empty="No leads in this range."><thead><tr><th>State</th><th class="num">Requests</th><th class="num"><abbr title="Responses with at least one offer">With offers</abbr></th><th class="num">Offers</th><th class="num"><abbr title="Offers displayed (unique impressions)">Shown</abbr></th><th class="num"><abbr title="Unique clicks">Clicks</abbr></th><th class="num"><abbr title="Average bid, US dollars">Avg bid</abbr></th></tr></thead><tbody></tbody></table></div>
  <h3>By credit band</h3>
  <div class="scroll"><table id="by-creditBand" data-empty="No leads in this range."><thead><tr><th>Credit band</th><th class="num">Requests</th><th class="num"><abbr title="Responses with at least one offer">With offers</abbr></th><th class="num">Offers</th><th class="num"><abbr title="Offers displayed (unique impressions)">Shown</abbr></th><th class="num"><abbr title="Unique clicks">Clicks</abbr></th><th class="num"><abbr title="Average bid, US dollars">Avg bid</abbr></th></tr></thead><tbody></tbody></table></div>
  <h3>By loan purpose</h3>
  <div class="scroll"><table id="by-loanPurpose" data-empty="No leads in this range."><thead><tr><th>Loan purpose</th><th class="num">Requests</th><th class="num"><abbr title="Responses with at least one offer">With offers</abbr></th><th class="num">Offers</th><th class="num"><abbr title="Offers displayed (unique impressions)">Shown</abbr></th><th class="num"><abbr title="Unique clicks">Clicks</abbr></th><th class="num"><abbr title="Average bid, US dollars">Avg bid</abbr></th></tr></thead><tbody></tbody></table></div>
  <h3>By loan amount</h3>
  <div class="scroll"><table id="by-amountBand" data-empty="No leads in this range."><thead><tr><th>Loan amount</th><th class="num">Requests</th><th class="num"><abbr title="Responses with at least one offer">With offers</abbr></th><th class="num">Offers</th><th class="num"><abbr title="Offers displayed (unique impressions)">Shown</abbr></th><th class="num"><abbr title="Unique clicks">Clicks</abbr></th><th class="num"><abbr title="Average bid, US dollars">Avg bid</abbr></th></tr></thead><tbody></tbody></table></div>
  <h3>By placement</h3>
  <div class="scroll"><table id="by-placement" data-empty="No leads in this range."><thead><tr><th>Placement</th><th class="num">Requests</th><th class="num"><abbr title="Responses with at least one offer">With offers</abbr></th><th class="num">Offers</th><th class="num"><abbr title="Offers displayed (unique impressions)">Shown</abbr></th><th class="num"><abbr title="Unique clicks">Clicks</abbr></th><th class="num"><abbr title="Average bid, US dollars">Avg bid</abbr></th></tr></thead><tbody></tbody></table></div>
  <h2>Replies by status</h2>
  <div class="scroll"><table id="replies" data-empty="No replies in this range."><thead><tr><th>Status</th><th>Replies</th><th>Average latency (ms)</th><th>95th percentile (ms)</th><th>Slowest (ms)</th></tr></thead><tbody></tbody></table></div>
  <h2>Why leads were rejected, failed or timed out</h2>
  <div class="scroll"><table id="causes" data-empty="No rejections, errors or timeouts in this range."><thead><tr><th>Status</th><th>Reason</th><th>HTTP status</th><th>Times</th><th>Average latency (ms)</th></tr></thead><tbody></tbody></table></div>
  <h2>Average bid per product type</h2>
  <div class="scroll"><table id="bids" data-empty="No offers in this range."><thead><tr><th>Product type</th><th>Offers</th><th>Average bid (USD)</th></tr></thead><tbody></tbody></table></div>
  <h2>Lead-level win/loss</h2>
  <p class="note">Outcome: won; outbid (another partner's offer won your product type); lost_to_own_offer (your other offer won it); ruled_out_by_phase (the phase rule showed another type's higher bid alone); timed_out (no reply within the window); dropped_by_contract_check (the offer broke the contract: see the reason). Bid rank is your bid's place among all bids of its product type for the lead (1 = highest); the gap is the winning bid minus yours (none when no offer of that type was shown).</p>
  <div class="scroll"><table id="leads" data-empty="No leads in this range."><thead><tr><th>Outcome</th><th class="num">Bid (USD)</th><th class="num">Gap to win (USD)</th><th class="num">Bid rank</th><th>Product type</th><th>Sent (UTC)</th><th>Reply</th><th>Reason</th><th class="num">Latency (ms)</th><th>Lead</th><th>Your lead id</th><th>Offer</th><th>Displayed</th><th>Clicked</th><th>Converted</th></tr></thead><tbody></tbody></table></div>
  <h2>Downloads</h2>
  <form id="downloads" class="downloads">
    <label class="wide">CSV table <select id="table">
      <option value="leads">Lead-level win/loss</option>
      <option value="summary">Summary figures</option>
      <option value="daily">Per day</option>
      <option value="products">Average bid per product type</option>
      <option value="replies">Replies by status, with latency</option>
      <option value="causes">Rejection, error and timeout causes</option>
      <option value="breakdowns">By state, credit band, loan purpose, amount band and placement</option>
    </select></label>
    <button type="button" id="csv" disabled>Download CSV</button>
    <button type="button" id="suppression" disabled>Download suppression list (CSV)</button>
  </form>
  <p>The suppression list holds the leads of this period that did not click your offer: the partner interface forbids remarketing to them.</p>
</section>
</main>
</body>
</html>
`
}

export const REPORT_PAGE_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; padding: 1rem clamp(0.75rem, 3vw, 2rem); }
main { max-width: 72rem; margin: 0 auto; min-width: 0; }
h1 { font-size: 1.6rem; margin: 0.25rem 0 1rem; }
h2 { font-size: 1.1rem; margin: 1.75rem 0 0.5rem; }
h3 { font-size: 0.95rem; margin: 1rem 0 0.25rem; }
form { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; }
label { display: flex; flex-direction: column; font-size: 0.85rem; gap: 0.25rem; flex: 1 1 9rem; min-width: 0; }
label.wide { flex: 2 1 14rem; }
input, select, button { font: inherit; padding: 0.4rem 0.5rem; max-width: 100%; min-width: 0; }
button { flex: 0 0 auto; }
#status, .note { overflow-wrap: anywhere; }
#status { min-height: 1.5em; }
.note { font-size: 0.85rem; opacity: 0.8; }
dl { display: grid; grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr)); gap: 0.75rem; }
dl div { border: 1px solid #8884; border-radius: 0.5rem; padding: 0.5rem 0.75rem; min-width: 0; }
dt { font-size: 0.8rem; opacity: 0.75; }
dd { margin: 0; font-size: 1.5rem; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 26rem), 1fr)); gap: 1rem; }
figure { margin: 0; border: 1px solid #8884; border-radius: 0.5rem; padding: 0.5rem 0.75rem; min-width: 0; }
figcaption { font-size: 0.9rem; font-weight: 600; }
figcaption span { font-weight: 400; opacity: 0.75; }
svg { display: block; width: 100%; height: auto; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; font-size: 0.85rem; }
th, td { text-align: left; padding: 0.25rem 0.5rem; border-bottom: 1px solid #8883; vertical-align: top; }
td { overflow-wrap: break-word; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.empty { font-style: italic; opacity: 0.8; padding: 0.5rem; }
td.nowrap { white-space: nowrap; }
th.group { text-align: left; padding-left: 1.5em; border-bottom: 1px solid currentColor; }
abbr { text-decoration: none; }
th { white-space: nowrap; }
`

/** Where `npm run build` (config/vite.reports.config.ts) writes the page's script, under the package's folder. */
const REPORT_PAGE_BUILT = 'dist/reports/app.js'
const SOURCE = 'report-page-app.ts'

const here = fileURLToPath(import.meta.url)
/** Under tsx or Vitest this module is its TypeScript source; in a build or the server package, tsc's copy. */
const fromSource = here.endsWith('.ts')

/**
 * A built server serves Vite's bundle, read once, at start: a package or image that left it out fails when
 * it starts, naming the fix, rather than on a partner's first visit.
 */
function readBuiltScript(): string {
  const path = join(packageRoot(import.meta.url), REPORT_PAGE_BUILT)
  if (!existsSync(path)) {
    throw new Error(
      `offer-widget: the reports page's script ${path} is missing: run \`npm run build\` (build:browser makes it), and ship dist/reports/ with dist/server/`,
    )
  }
  return readFileSync(path, 'utf8')
}
const built = fromSource ? undefined : readBuiltScript()

/**
 * From the sources (`npm start`, the tests), the page's script is its TypeScript transpiled on the first
 * request, by the TypeScript a source checkout has as a dev dependency: no build needed, never stale. The
 * script imports nothing at run time (config/dependency-cruiser.cjs), so this per-file transpile is the program
 * Vite bundles (docs/decisions/0102-report-page-build.md). Named through a variable so that tsc's copy of
 * this module, which never takes this path, does not make the server package depend on TypeScript.
 */
async function transpileSource(): Promise<string> {
  const compiler = 'typescript'
  const ts = ((await import(compiler)) as { default: typeof import('typescript') }).default
  const source = readFileSync(join(dirname(here), SOURCE), 'utf8')
  return ts.transpileModule(source, {
    fileName: SOURCE,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      verbatimModuleSyntax: true,
    },
  }).outputText
}
let transpiled: Promise<string> | undefined

/** The page's script (`GET /reports/app.js`): the built bundle, or the transpiled source (see above). */
export function reportPageScript(): Promise<string> {
  if (built !== undefined) return Promise.resolve(built)
  // Memoized; cleared on failure, so the next request tries again.
  transpiled ??= transpileSource().catch((error: unknown) => {
    transpiled = undefined
    throw error
  })
  return transpiled
}
