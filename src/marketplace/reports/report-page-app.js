// @ts-check
/// <reference lib="dom" />
/**
 * @module The `/reports` page's script, served as it is (`GET /reports/app.js`, CSP `script-src 'self'`).
 * Plain JavaScript checked by tsc (`// @ts-check`, JSDoc types from the ledger's report types), so
 * `npm start` (tsx) serves this file and the compiled server package serves tsc's copy of it with no
 * bundler. It asks for the reports token, fetches a partner's report from the JSON API and draws the
 * figures, one small bar chart per daily figure (inline SVG built with DOM calls: every UTC day of the
 * range on the axis, days without leads at zero, so one day and ninety read alike) and the tables. The From
 * and To boxes always hold the range in effect. Amounts are US dollars. Partner text is only ever set as
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
const DAY_MS = 86_400_000
/** @param {number} ms */
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10)
/** @param {number} v */
const usd = (v) => `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`

/** The API's default range (the last 30 days, today included) in the boxes, so the range is always on view. */
function defaultRange() {
  const today = Date.parse(`${isoDay(Date.now())}T00:00:00Z`)
  if (!field('from').value) field('from').value = isoDay(today - 29 * DAY_MS)
  if (!field('to').value) field('to').value = isoDay(today)
}

/**
 * The UTC days a report covers: from its `from` day to the day holding the instant before its `to`.
 * @param {PartnerReport} r
 */
function daysOf(r) {
  const first = Date.parse(`${r.from.slice(0, 10)}T00:00:00Z`)
  const last = Date.parse(`${isoDay(Date.parse(r.to) - 1)}T00:00:00Z`)
  /** @type {string[]} */
  const days = []
  for (let t = first; t <= last && days.length < 400; t += DAY_MS) days.push(isoDay(t))
  return days
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
    ['Conversion amount (USD)', usd(r.conversionAmount)],
    ['Win rate', percent(r.winRate)],
    ['Click-through rate', percent(r.clickThroughRate)],
    ['Offers dropped (broke the contract)', r.offersDropped],
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

/** A round upper bound for an axis: 1, 2 or 5 times a power of ten, at least `v` and at least 1. */
/** @param {number} v */
function niceMax(v) {
  if (v <= 1) return 1
  const power = 10 ** Math.floor(Math.log10(v))
  return ([1, 2, 5, 10].find((m) => m * power >= v) ?? 10) * power
}

/**
 * One small bar chart per figure: a bar per UTC day of the range, the first and last day (and the middle
 * one on longer ranges) on the x axis, 0, half and the top of the scale on the y axis.
 * @param {PartnerReport} r
 */
function chart(r) {
  const days = daysOf(r)
  const byDate = new Map(r.daily.map((d) => [d.date, d]))
  /** @type {Array<[DailyFigure, string, string]>} */
  const series = [
    ['requests', 'Requests', '#3567c6'],
    ['offersDisplayed', 'Offers displayed', '#16794a'],
    ['uniqueClicks', 'Unique clicks', '#c2521b'],
    ['conversions', 'Conversions', '#8a3ec2'],
  ]
  $('range').textContent =
    `${days[0]} to ${days[days.length - 1]} (${days.length} ${days.length === 1 ? 'day' : 'days'})`
  $('chart').replaceChildren(
    ...series.map(([key, name, color]) => {
      const values = days.map((date) => byDate.get(date)?.[key] ?? 0)
      const total = values.reduce((a, b) => a + b, 0)
      const figure = document.createElement('figure')
      const caption = document.createElement('figcaption')
      caption.append(name)
      const sum = document.createElement('span')
      sum.textContent = ` · ${total} in the range`
      caption.append(sum)
      figure.append(caption, bars(days, values, name, color))
      return figure
    }),
  )
}

/**
 * @param {string[]} days
 * @param {number[]} values
 * @param {string} name
 * @param {string} color
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the reports page's untyped browser script; issue 34 moves it to TypeScript built like the rest (left)
function bars(days, values, name, color) {
  const w = 400
  const h = 200
  const left = 44
  const right = 10
  const top = 14
  const bottom = 46
  const plotW = w - left - right
  const plotH = h - top - bottom
  const max = niceMax(Math.max(0, ...values))
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`)
  svg.setAttribute('role', 'img')
  svg.setAttribute(
    'aria-label',
    `${name} per UTC day from ${days[0]} to ${days[days.length - 1]}: ${values.reduce((a, b) => a + b, 0)} in all, at most ${Math.max(0, ...values)} a day`,
  )
  /**
   * @param {string} tag
   * @param {Record<string, string | number>} attributes
   * @param {string} [text]
   */
  const add = (tag, attributes, text) => {
    const node = document.createElementNS(SVG, tag)
    for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, String(v))
    if (text !== undefined) node.textContent = text
    svg.append(node)
    return node
  }
  /** @param {number} v */
  const y = (v) => top + plotH - (v * plotH) / max
  // Counts are whole: the middle line only when it is a whole number.
  for (const tick of Number.isInteger(max / 2) ? [0, max / 2, max] : [0, max]) {
    add('line', {
      x1: left,
      x2: w - right,
      y1: y(tick),
      y2: y(tick),
      stroke: 'currentColor',
      opacity: tick ? 0.15 : 0.5,
    })
    add(
      'text',
      { x: left - 6, y: y(tick) + 4, 'font-size': 13, fill: 'currentColor', 'text-anchor': 'end' },
      String(tick),
    )
  }
  add(
    'text',
    {
      x: 10,
      y: top + plotH / 2,
      'font-size': 13,
      fill: 'currentColor',
      'text-anchor': 'middle',
      transform: `rotate(-90 12 ${top + plotH / 2})`,
    },
    'count',
  )
  const band = plotW / days.length
  const barW = Math.max(1, Math.min(band * 0.7, 48))
  days.forEach((date, i) => {
    const v = values[i] ?? 0
    const cx = left + band * (i + 0.5)
    const bar = add('rect', {
      x: cx - barW / 2,
      y: y(v),
      width: barW,
      // A zero day keeps a hairline, so the day is visibly part of the range.
      height: Math.max(v > 0 ? 1 : 0.5, (v * plotH) / max),
      fill: color,
      opacity: v > 0 ? 1 : 0.35,
    })
    const title = document.createElementNS(SVG, 'title')
    title.textContent = `${date}: ${v} ${name.toLowerCase()}`
    bar.append(title)
    if (days.length <= 14 && v > 0) {
      add(
        'text',
        { x: cx, y: y(v) - 3, 'font-size': 13, fill: 'currentColor', 'text-anchor': 'middle' },
        String(v),
      )
    }
  })
  // The range on the x axis: first and last day, and the middle one on ranges long enough to hold it.
  const dateY = top + plotH + 17
  if (days.length === 1) {
    add(
      'text',
      { x: left + plotW / 2, y: dateY, 'font-size': 13, fill: 'currentColor', 'text-anchor': 'middle' },
      days[0] ?? '',
    )
  } else {
    add(
      'text',
      { x: left, y: dateY, 'font-size': 13, fill: 'currentColor', 'text-anchor': 'start' },
      days[0] ?? '',
    )
    add(
      'text',
      { x: w - right, y: dateY, 'font-size': 13, fill: 'currentColor', 'text-anchor': 'end' },
      days[days.length - 1] ?? '',
    )
    if (days.length >= 7) {
      const mid = Math.floor(days.length / 2)
      add(
        'text',
        {
          x: left + band * (mid + 0.5),
          y: dateY,
          'font-size': 13,
          fill: 'currentColor',
          'text-anchor': 'middle',
        },
        days[mid] ?? '',
      )
    }
  }
  add(
    'text',
    {
      x: left + plotW / 2,
      y: h - 4,
      'font-size': 13,
      fill: 'currentColor',
      'text-anchor': 'middle',
      opacity: 0.75,
    },
    'UTC day',
  )
  return svg
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
    cell(row, usd(b.averageBid), 'num')
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
    cell(row, o ? usd(o.rate) : '', 'num')
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
  // The boxes show the range in effect, whatever was typed (or left empty).
  const days = daysOf(report)
  field('from').value = days[0] ?? ''
  field('to').value = days[days.length - 1] ?? ''
  figures(report)
  chart(report)
  tables(report)
  $('report').hidden = false
  button('csv').disabled = false
  button('suppression').disabled = false
  say(
    `Leads sent from ${days[0]} to ${days[days.length - 1]} (UTC days, both included)${report.leadsTruncated ? '; win/loss list truncated' : ''}.`,
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

defaultRange()
field('token').addEventListener('change', loadPartners)
$('query').addEventListener('submit', show)
$('csv').addEventListener('click', csv)
$('suppression').addEventListener('click', suppression)

// A module (the page loads it with type="module"), so none of the names above is a global.
export {}
