// @ts-check
/// <reference lib="dom" />
/**
 * @module The `/reports` page's script, served as it is (`GET /reports/app.js`, CSP `script-src 'self'`).
 * Plain JavaScript checked by tsc (`// @ts-check`, JSDoc types from the ledger's report types), so
 * `npm start` (tsx) serves this file and the compiled server package serves tsc's copy of it with no
 * bundler. It asks for the reports token, fetches a partner's report from the JSON API and draws the
 * figures, a daily chart (inline SVG built with DOM calls) and the tables. Partner text is only ever set as
 * text.
 */

/** @typedef {import('../../ledger/types.js').PartnerReport} PartnerReport */
/** @typedef {{ id: string; name: string; tier: string; enabled: boolean }} PartnerListItem */
/** @typedef {'requests' | 'offersDisplayed' | 'uniqueClicks' | 'conversions'} DailyFigure */

/** @param {string} id */
const $ = (id) => {
  const element = document.getElementById(id)
  if (!element) throw new Error(`reports page: #${id} is missing from the page`)
  return element
}
/** @param {string} id */
const field = (id) => /** @type {HTMLInputElement} */ ($(id))
/** @param {string} id */
const select = (id) => /** @type {HTMLSelectElement} */ ($(id))
/** @param {string} id */
const button = (id) => /** @type {HTMLButtonElement} */ ($(id))
/** @param {string} id */
const tbody = (id) => {
  const body = /** @type {HTMLTableElement} */ ($(id)).tBodies[0]
  if (!body) throw new Error(`reports page: #${id} has no tbody`)
  return body
}

const api = `${location.pathname.replace(/\/reports\/?$/, '')}/api/reports/partners`
const SVG = 'http://www.w3.org/2000/svg'
/** @type {string | undefined} */
let last

/** @param {Record<string, string>} [extra] */
function headers(extra) {
  return { Authorization: `Bearer ${field('token').value}`, ...extra }
}
/** @param {string} text */
function say(text) {
  $('status').textContent = text
}
function query() {
  const q = new URLSearchParams()
  if (field('from').value) q.set('from', field('from').value)
  if (field('to').value) q.set('to', field('to').value)
  return q.toString() ? `?${q}` : ''
}

async function loadPartners() {
  if (!field('token').value) return
  const res = await fetch(api, { headers: headers() })
  if (!res.ok) {
    say(
      res.status === 401
        ? 'That token is not accepted: use REPORTS_TOKEN or your partner reports token.'
        : `Could not list partners (${res.status}).`,
    )
    return
  }
  const { partners } = /** @type {{ partners: PartnerListItem[] }} */ (await res.json())
  const list = select('partner')
  const chosen = list.value
  list.replaceChildren(...partners.map((p) => new Option(`${p.name} (${p.id}, ${p.tier} look)`, p.id)))
  if (partners.some((p) => p.id === chosen)) list.value = chosen
  say(partners.length === 1 ? `Your report: ${partners[0]?.name}.` : `${partners.length} partners.`)
}

/**
 * @param {HTMLTableRowElement} row
 * @param {string | number} text
 * @param {string} [cls]
 */
function cell(row, text, cls) {
  const td = row.insertCell()
  td.textContent = String(text)
  if (cls) td.className = cls
}

/** @param {number | null} v */
const percent = (v) => (v === null ? 'n/a' : `${(v * 100).toFixed(1)} %`)
/** @param {number | null | undefined} v */
const ms = (v) => (v === null || v === undefined ? '' : String(v))

/** @param {PartnerReport} r */
function figures(r) {
  /** @type {Array<[string, string | number]>} */
  const items = [
    ['Requests', r.requests],
    ['Responses with an offer', r.responsesWithOffers],
    ['Offers returned', r.offersReturned],
    ['Offers that won the auction', r.offersWon],
    ['Offers displayed', r.offersDisplayed],
    ['Unique clicks', r.uniqueClicks],
    ['Conversions', r.conversions],
    ['Win rate', percent(r.winRate)],
    ['Click-through rate', percent(r.clickThroughRate)],
  ]
  $('figures').replaceChildren(
    ...items.map(([k, v]) => {
      const div = document.createElement('div')
      const dt = document.createElement('dt')
      dt.textContent = k
      const dd = document.createElement('dd')
      dd.textContent = String(v)
      div.append(dt, dd)
      return div
    }),
  )
}

/** @param {PartnerReport['daily']} daily */
function chart(daily) {
  const w = 720
  const h = 220
  const pad = 32
  /** @type {Array<[DailyFigure, string, string]>} */
  const series = [
    ['requests', 'Requests', '#3567c6'],
    ['offersDisplayed', 'Offers displayed', '#16794a'],
    ['uniqueClicks', 'Unique clicks', '#c2521b'],
    ['conversions', 'Conversions', '#8a3ec2'],
  ]
  const max = Math.max(1, ...daily.flatMap((d) => series.map(([k]) => d[k])))
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`)
  svg.setAttribute('role', 'img')
  svg.setAttribute('aria-label', 'Requests, offers displayed, unique clicks and conversions per day')
  /** @param {number} i */
  const x = (i) => pad + (daily.length < 2 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (daily.length - 1))
  /** @param {number} v */
  const y = (v) => h - pad - (v * (h - 2 * pad)) / max
  const axis = document.createElementNS(SVG, 'path')
  axis.setAttribute('d', `M${pad} ${pad}V${h - pad}H${w - pad}`)
  axis.setAttribute('stroke', 'currentColor')
  axis.setAttribute('fill', 'none')
  axis.setAttribute('opacity', '0.4')
  svg.append(axis)
  /**
   * @param {string} text
   * @param {number} lx
   * @param {number} ly
   * @param {'start' | 'end'} anchor
   */
  const label = (text, lx, ly, anchor) => {
    const t = document.createElementNS(SVG, 'text')
    t.setAttribute('x', String(lx))
    t.setAttribute('y', String(ly))
    t.setAttribute('font-size', '11')
    t.setAttribute('fill', 'currentColor')
    t.setAttribute('text-anchor', anchor)
    t.textContent = text
    svg.append(t)
  }
  label(String(max), pad - 4, pad + 4, 'end')
  label('0', pad - 4, h - pad + 4, 'end')
  const first = daily[0]
  const lastDay = daily[daily.length - 1]
  if (first && lastDay) {
    label(first.date, pad, h - 8, 'start')
    label(lastDay.date, w - pad, h - 8, 'end')
  }
  series.forEach(([key, name, color], s) => {
    const line = document.createElementNS(SVG, 'polyline')
    line.setAttribute('points', daily.map((d, i) => `${x(i)},${y(d[key])}`).join(' '))
    line.setAttribute('fill', 'none')
    line.setAttribute('stroke', color)
    line.setAttribute('stroke-width', '2')
    svg.append(line)
    for (const [i, d] of daily.entries()) {
      const dot = document.createElementNS(SVG, 'circle')
      dot.setAttribute('cx', String(x(i)))
      dot.setAttribute('cy', String(y(d[key])))
      dot.setAttribute('r', '3')
      dot.setAttribute('fill', color)
      const title = document.createElementNS(SVG, 'title')
      title.textContent = `${d.date} ${name}: ${d[key]}`
      dot.append(title)
      svg.append(dot)
    }
    const legend = document.createElementNS(SVG, 'text')
    legend.setAttribute('x', String(pad + 8 + s * 160))
    legend.setAttribute('y', '14')
    legend.setAttribute('font-size', '12')
    legend.setAttribute('fill', color)
    legend.textContent = `\u25CF ${name}`
    svg.append(legend)
  })
  $('chart').replaceChildren(svg)
}

/**
 * Replaces a table's rows: one drawn per item.
 * @template T
 * @param {string} id
 * @param {T[]} items
 * @param {(row: HTMLTableRowElement, item: T) => void} draw
 */
function fill(id, items, draw) {
  const body = tbody(id)
  body.replaceChildren()
  for (const item of items) draw(body.insertRow(), item)
}

/** @param {PartnerReport} r */
function tables(r) {
  fill('bids', r.averageBidByProductType, (row, b) => {
    cell(row, b.productType)
    cell(row, b.offers, 'num')
    cell(row, b.averageBid.toFixed(2), 'num')
  })
  fill('replies', r.replies, (row, x) => {
    cell(row, x.status)
    cell(row, x.count, 'num')
    cell(row, ms(x.averageLatencyMs), 'num')
    cell(row, ms(x.p95LatencyMs), 'num')
    cell(row, ms(x.maxLatencyMs), 'num')
  })
  fill('causes', r.causes, (row, x) => {
    cell(row, x.status)
    cell(row, x.reason)
    cell(row, x.httpStatus ?? '')
    cell(row, x.count, 'num')
    cell(row, ms(x.averageLatencyMs), 'num')
  })
  // One row per offer of each lead, or one for a lead without offers.
  const rows = r.leads
    .slice(0, 500)
    .flatMap((lead) => (lead.offers.length ? lead.offers : [null]).map((o) => ({ lead, o })))
  fill('leads', rows, (row, { lead, o }) => {
    cell(row, lead.sentAt.replace('T', ' ').slice(0, 19))
    cell(row, lead.leadId)
    cell(row, lead.partnerLeadId ?? '')
    cell(row, lead.status)
    cell(row, lead.reason ?? '')
    cell(row, ms(lead.latencyMs), 'num')
    cell(row, o ? o.offerId.slice(0, 8) : '')
    cell(row, o ? o.productType : '')
    cell(row, o ? o.rate.toFixed(2) : '', 'num')
    cell(row, o ? o.result : '', o ? o.result : '')
    cell(row, o ? (o.displayed ? 'yes' : 'no') : '')
    cell(row, o ? (o.clicked ? 'yes' : 'no') : '')
    cell(row, lead.converted ? 'yes' : 'no')
  })
}

/** @param {Event} event */
async function show(event) {
  event.preventDefault()
  const id = select('partner').value
  if (!id) {
    await loadPartners()
    return
  }
  say('Loading...')
  const res = await fetch(`${api}/${encodeURIComponent(id)}${query()}`, {
    headers: headers({ Accept: 'application/json' }),
  })
  const body = await res.json().catch(() => ({}))
  if (!res.ok) {
    say(/** @type {{ message?: string }} */ (body).message || `Request failed (${res.status}).`)
    return
  }
  const report = /** @type {PartnerReport} */ (body)
  last = id
  figures(report)
  chart(report.daily)
  tables(report)
  $('report').hidden = false
  button('csv').disabled = false
  button('suppression').disabled = false
  say(
    `Leads sent ${report.from.slice(0, 10)} to ${report.to.slice(0, 10)}${report.leadsTruncated ? ' (win/loss list truncated)' : ''}.`,
  )
}

/**
 * @param {string} path
 * @param {string} name
 */
async function download(path, name) {
  const res = await fetch(`${api}/${encodeURIComponent(last ?? '')}${path}`, {
    headers: headers({ Accept: 'text/csv' }),
  })
  if (!res.ok) {
    const body = /** @type {{ message?: string }} */ (await res.json().catch(() => ({})))
    say(body.message || `CSV failed (${res.status}).`)
    return
  }
  const a = document.createElement('a')
  a.href = URL.createObjectURL(await res.blob())
  a.download = name
  a.click()
  setTimeout(() => URL.revokeObjectURL(a.href), 1000)
}
function csv() {
  const q = query()
  const table = select('table').value
  return download(`${q ? `${q}&` : '?'}format=csv&table=${table}`, `partner-${last}-${table}.csv`)
}
function suppression() {
  const q = query()
  return download(`/suppression${q ? `${q}&` : '?'}format=csv`, `partner-${last}-suppression.csv`)
}

field('token').addEventListener('change', loadPartners)
$('query').addEventListener('submit', show)
$('csv').addEventListener('click', csv)
$('suppression').addEventListener('click', suppression)

// A module (the page loads it with type="module"), so none of the names above is a global.
export {}
