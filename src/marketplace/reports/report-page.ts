/**
 * @module The `/reports` page: self-contained (no external assets) and CSP-friendly (no inline script or
 * style: its script and stylesheet are served as routes of their own). It asks for the reports token,
 * fetches a partner's report from the JSON API and draws the figures, a daily chart (inline SVG built with
 * DOM calls) and the win/loss table. Partner text is only ever set as text.
 */

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

export const REPORT_PAGE_JS = `
const $ = (id) => document.getElementById(id)
const api = location.pathname.replace(/\\/reports\\/?$/, '') + '/api/reports/partners'
const SVG = 'http://www.w3.org/2000/svg'
let last

function headers(extra) {
  return { Authorization: 'Bearer ' + $('token').value, ...extra }
}
function say(text) { $('status').textContent = text }
function query() {
  const q = new URLSearchParams()
  if ($('from').value) q.set('from', $('from').value)
  if ($('to').value) q.set('to', $('to').value)
  return q.toString() ? '?' + q : ''
}

async function loadPartners() {
  if (!$('token').value) return
  const res = await fetch(api, { headers: headers() })
  if (!res.ok) { say(res.status === 401 ? 'That token is not accepted: use REPORTS_TOKEN or your partner reports token.' : 'Could not list partners (' + res.status + ').'); return }
  const { partners } = await res.json()
  const select = $('partner')
  const chosen = select.value
  select.replaceChildren(...partners.map((p) => new Option(p.name + ' (' + p.id + ', ' + p.tier + ' look)', p.id)))
  if (partners.some((p) => p.id === chosen)) select.value = chosen
  say(partners.length === 1 ? 'Your report: ' + partners[0].name + '.' : partners.length + ' partners.')
}

function cell(row, text, cls) {
  const td = row.insertCell()
  td.textContent = String(text)
  if (cls) td.className = cls
}

const percent = (v) => (v === null ? 'n/a' : (v * 100).toFixed(1) + ' %')
const ms = (v) => (v === null || v === undefined ? '' : String(v))

function figures(r) {
  const items = [
    ['Requests', r.requests], ['Responses with an offer', r.responsesWithOffers],
    ['Offers returned', r.offersReturned], ['Offers that won the auction', r.offersWon],
    ['Offers displayed', r.offersDisplayed], ['Unique clicks', r.uniqueClicks], ['Conversions', r.conversions],
    ['Win rate', percent(r.winRate)], ['Click-through rate', percent(r.clickThroughRate)],
  ]
  $('figures').replaceChildren(...items.map(([k, v]) => {
    const div = document.createElement('div')
    const dt = document.createElement('dt'); dt.textContent = k
    const dd = document.createElement('dd'); dd.textContent = String(v)
    div.append(dt, dd)
    return div
  }))
}

function chart(daily) {
  const w = 720, h = 220, pad = 32
  const series = [
    ['requests', 'Requests', '#3567c6'], ['offersDisplayed', 'Offers displayed', '#16794a'],
    ['uniqueClicks', 'Unique clicks', '#c2521b'], ['conversions', 'Conversions', '#8a3ec2'],
  ]
  const max = Math.max(1, ...daily.flatMap((d) => series.map(([k]) => d[k])))
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h)
  svg.setAttribute('role', 'img')
  svg.setAttribute('aria-label', 'Requests, offers displayed, unique clicks and conversions per day')
  const x = (i) => pad + (daily.length < 2 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (daily.length - 1))
  const y = (v) => h - pad - (v * (h - 2 * pad)) / max
  const axis = document.createElementNS(SVG, 'path')
  axis.setAttribute('d', 'M' + pad + ' ' + pad + 'V' + (h - pad) + 'H' + (w - pad))
  axis.setAttribute('stroke', 'currentColor'); axis.setAttribute('fill', 'none'); axis.setAttribute('opacity', '0.4')
  svg.append(axis)
  const label = (text, lx, ly, anchor) => {
    const t = document.createElementNS(SVG, 'text')
    t.setAttribute('x', lx); t.setAttribute('y', ly); t.setAttribute('font-size', '11')
    t.setAttribute('fill', 'currentColor'); t.setAttribute('text-anchor', anchor)
    t.textContent = text
    svg.append(t)
  }
  label(String(max), pad - 4, pad + 4, 'end')
  label('0', pad - 4, h - pad + 4, 'end')
  if (daily.length) { label(daily[0].date, pad, h - 8, 'start'); label(daily[daily.length - 1].date, w - pad, h - 8, 'end') }
  series.forEach(([key, name, color], s) => {
    const line = document.createElementNS(SVG, 'polyline')
    line.setAttribute('points', daily.map((d, i) => x(i) + ',' + y(d[key])).join(' '))
    line.setAttribute('fill', 'none'); line.setAttribute('stroke', color); line.setAttribute('stroke-width', '2')
    svg.append(line)
    for (const [i, d] of daily.entries()) {
      const dot = document.createElementNS(SVG, 'circle')
      dot.setAttribute('cx', x(i)); dot.setAttribute('cy', y(d[key])); dot.setAttribute('r', '3'); dot.setAttribute('fill', color)
      const title = document.createElementNS(SVG, 'title'); title.textContent = d.date + ' ' + name + ': ' + d[key]
      dot.append(title); svg.append(dot)
    }
    const legend = document.createElementNS(SVG, 'text')
    legend.setAttribute('x', pad + 8 + s * 160); legend.setAttribute('y', 14); legend.setAttribute('font-size', '12')
    legend.setAttribute('fill', color); legend.textContent = '\u25CF ' + name
    svg.append(legend)
  })
  $('chart').replaceChildren(svg)
}

function tables(r) {
  const bids = $('bids').tBodies[0]
  bids.replaceChildren()
  for (const b of r.averageBidByProductType) {
    const row = bids.insertRow()
    cell(row, b.productType); cell(row, b.offers, 'num'); cell(row, b.averageBid.toFixed(2), 'num')
  }
  const replies = $('replies').tBodies[0]
  replies.replaceChildren()
  for (const x of r.replies) {
    const row = replies.insertRow()
    cell(row, x.status); cell(row, x.count, 'num'); cell(row, ms(x.averageLatencyMs), 'num')
    cell(row, ms(x.p95LatencyMs), 'num'); cell(row, ms(x.maxLatencyMs), 'num')
  }
  const causes = $('causes').tBodies[0]
  causes.replaceChildren()
  for (const x of r.causes) {
    const row = causes.insertRow()
    cell(row, x.status); cell(row, x.reason); cell(row, x.httpStatus ?? ''); cell(row, x.count, 'num')
    cell(row, ms(x.averageLatencyMs), 'num')
  }
  const leads = $('leads').tBodies[0]
  leads.replaceChildren()
  for (const lead of r.leads.slice(0, 500)) {
    const offers = lead.offers.length ? lead.offers : [null]
    for (const o of offers) {
      const row = leads.insertRow()
      cell(row, lead.sentAt.replace('T', ' ').slice(0, 19)); cell(row, lead.leadId); cell(row, lead.partnerLeadId ?? '')
      cell(row, lead.status); cell(row, lead.reason ?? ''); cell(row, ms(lead.latencyMs), 'num')
      cell(row, o ? o.offerId.slice(0, 8) : ''); cell(row, o ? o.productType : '')
      cell(row, o ? o.rate.toFixed(2) : '', 'num'); cell(row, o ? o.result : '', o ? o.result : '')
      cell(row, o ? (o.displayed ? 'yes' : 'no') : ''); cell(row, o ? (o.clicked ? 'yes' : 'no') : '')
      cell(row, lead.converted ? 'yes' : 'no')
    }
  }
}

async function show(event) {
  event.preventDefault()
  const id = $('partner').value
  if (!id) { await loadPartners(); return }
  say('Loading...')
  const res = await fetch(api + '/' + encodeURIComponent(id) + query(), { headers: headers({ Accept: 'application/json' }) })
  const body = await res.json().catch(() => ({}))
  if (!res.ok) { say(body.message || 'Request failed (' + res.status + ').'); return }
  last = id
  figures(body); chart(body.daily); tables(body)
  $('report').hidden = false
  $('csv').disabled = false
  $('suppression').disabled = false
  say('Leads sent ' + body.from.slice(0, 10) + ' to ' + body.to.slice(0, 10) + (body.leadsTruncated ? ' (win/loss list truncated)' : '') + '.')
}

async function download(path, name) {
  const res = await fetch(api + '/' + encodeURIComponent(last) + path, { headers: headers({ Accept: 'text/csv' }) })
  if (!res.ok) { const body = await res.json().catch(() => ({})); say(body.message || 'CSV failed (' + res.status + ').'); return }
  const a = document.createElement('a')
  a.href = URL.createObjectURL(await res.blob())
  a.download = name
  a.click()
  setTimeout(() => URL.revokeObjectURL(a.href), 1000)
}
function csv() {
  const q = query()
  const table = $('table').value
  return download((q ? q + '&' : '?') + 'format=csv&table=' + table, 'partner-' + last + '-' + table + '.csv')
}
function suppression() {
  const q = query()
  return download('/suppression' + (q ? q + '&' : '?') + 'format=csv', 'partner-' + last + '-suppression.csv')
}

$('token').addEventListener('change', loadPartners)
$('query').addEventListener('submit', show)
$('csv').addEventListener('click', csv)
$('suppression').addEventListener('click', suppression)
`
