/**
 * @module The `/reports` page: self-contained (no external assets) and CSP-friendly (no inline script or
 * style: its script, `report-page-app.js`, and its stylesheet are served as routes of their own). The
 * script asks for the reports token, fetches a partner's report from the JSON API and draws it.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

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
  <label>Reports token <input id="token" type="password" autocomplete="off" required></label>
  <label>Partner <select id="partner" required><option value="">Enter the token first</option></select></label>
  <label>From <input id="from" type="date"></label>
  <label>To <input id="to" type="date"></label>
  <button type="submit">Show report</button>
  <label>CSV table <select id="table">
    <option value="leads">Lead-level win/loss</option>
    <option value="summary">Summary figures</option>
    <option value="daily">Per day</option>
    <option value="products">Average bid per product type</option>
    <option value="replies">Replies by status, with latency</option>
    <option value="causes">Rejection, error and timeout causes</option>
  </select></label>
  <button type="button" id="csv" disabled>Download CSV</button>
  <button type="button" id="suppression" disabled>Download suppression list (CSV)</button>
</form>
<p id="status" role="status"></p>
<section id="report" hidden>
  <dl id="figures"></dl>
  <h2>Over time (per UTC day)</h2>
  <div id="chart"></div>
  <h2>Replies by status</h2>
  <table id="replies"><thead><tr><th>Status</th><th>Replies</th><th>Average latency (ms)</th><th>95th percentile (ms)</th><th>Slowest (ms)</th></tr></thead><tbody></tbody></table>
  <h2>Why leads were rejected, failed or timed out</h2>
  <table id="causes"><thead><tr><th>Status</th><th>Reason</th><th>HTTP status</th><th>Times</th><th>Average latency (ms)</th></tr></thead><tbody></tbody></table>
  <h2>Average bid per product type</h2>
  <table id="bids"><thead><tr><th>Product type</th><th>Offers</th><th>Average bid</th></tr></thead><tbody></tbody></table>
  <h2>Lead-level win/loss</h2>
  <table id="leads"><thead><tr><th>Sent</th><th>Lead</th><th>Your lead id</th><th>Reply</th><th>Reason</th><th>Latency (ms)</th><th>Offer</th><th>Product type</th><th>Bid</th><th>Result</th><th>Displayed</th><th>Clicked</th><th>Converted</th></tr></thead><tbody></tbody></table>
  <p>The suppression list holds the leads of this period that did not click your offer: the partner interface forbids remarketing to them.</p>
</section>
</main>
</body>
</html>
`
}

export const REPORT_PAGE_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; padding: 1rem 2rem; }
main { max-width: 72rem; margin: 0 auto; }
form { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; }
label { display: flex; flex-direction: column; font-size: 0.85rem; gap: 0.25rem; }
input, select, button { font: inherit; padding: 0.35rem 0.5rem; }
dl { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: 0.75rem; }
dl div { border: 1px solid #8884; border-radius: 0.5rem; padding: 0.5rem 0.75rem; }
dt { font-size: 0.8rem; opacity: 0.75; }
dd { margin: 0; font-size: 1.5rem; font-variant-numeric: tabular-nums; }
table { border-collapse: collapse; width: 100%; font-size: 0.85rem; }
th, td { text-align: left; padding: 0.25rem 0.5rem; border-bottom: 1px solid #8883; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
svg { width: 100%; height: auto; max-height: 16rem; }
.won { color: #16794a; } .lost { opacity: 0.7; }
#status { min-height: 1.5em; }
`

/**
 * The page's script, `report-page-app.js` beside this module (the source under tsx, tsc's copy in the
 * server package): read once, at start, so a package that left it out fails when it starts rather than on
 * a partner's first visit. tsc's copy ends with a link to a source map the page does not serve.
 */
export const REPORT_PAGE_JS = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), 'report-page-app.js'),
  'utf8',
).replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n')
