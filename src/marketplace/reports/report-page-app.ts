/**
 * @module The `/reports` page's script (`GET /reports/app.js`, CSP `script-src 'self'`): one module that
 * imports nothing at run time, only types, so Vite's bundle of it (`dist/reports/app.js`, what a built
 * server serves) and TypeScript's per-file transpile of it (what a server run from its sources serves)
 * are the same program (docs/decisions/0102-report-page-build.md). It asks for the reports token, fetches
 * a partner's report from the JSON API and draws the figures, one small bar chart per daily figure (inline
 * SVG built with DOM calls: every UTC day of the range on the axis, days without leads at zero, so one day
 * and ninety read alike) and the tables; and, for the operator, the placements report. The From and To
 * boxes always hold the range in effect. Amounts are US dollars. Partner text is only ever set as text.
 * long-file: the page is one file because it may import nothing at run time (the dependency rule
 * `browser-imports-no-server` holds it to that); split, the two servings would differ.
 */
import type { PartnerReport, PlacementsReport } from '../../ledger/report-types.ts'

interface PartnerListItem {
  id: string
  name: string
  tier: string
  enabled: boolean
}
/** The daily figures drawn as charts. */
type DailyFigure = 'requests' | 'offersDisplayed' | 'uniqueClicks' | 'conversions'

/** The element `#id`, which must be a `type` (an input, a select...): the page's HTML and this script agree. */
function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const element = document.getElementById(id)
  if (!(element instanceof type)) throw new Error(`reports page: #${id} is missing or not a ${type.name}`)
  return element
}
const $ = (id: string): HTMLElement => byId(id, HTMLElement)
const field = (id: string): HTMLInputElement => byId(id, HTMLInputElement)
const select = (id: string): HTMLSelectElement => byId(id, HTMLSelectElement)
const button = (id: string): HTMLButtonElement => byId(id, HTMLButtonElement)
function tbody(id: string): HTMLTableSectionElement {
  const body = byId(id, HTMLTableElement).tBodies[0]
  if (!body) throw new Error(`reports page: #${id} has no tbody`)
  return body
}

const api = `${location.pathname.replace(/\/reports\/?$/, '')}/api/reports/partners`
const placementsApi = api.replace(/partners$/, 'placements')
const SVG = 'http://www.w3.org/2000/svg'
/** The partner of the report on screen: what the downloads are for. */
let last: string | undefined

function headers(extra?: Record<string, string>): Record<string, string> {
  return { Authorization: `Bearer ${field('token').value}`, ...extra }
}
function say(text: string): void {
  $('status').textContent = text
}
const DAY_MS = 86_400_000
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
const usd = (v: number): string =>
  `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`

/** The API's default range (the last 30 days, today included) in the boxes, so the range is always on view. */
function defaultRange(): void {
  const today = Date.parse(`${isoDay(Date.now())}T00:00:00Z`)
  if (!field('from').value) field('from').value = isoDay(today - 29 * DAY_MS)
  if (!field('to').value) field('to').value = isoDay(today)
}

/** The UTC days a report covers: from its `from` day to the day holding the instant before its `to`. */
function daysOf(r: PartnerReport): string[] {
  const first = Date.parse(`${r.from.slice(0, 10)}T00:00:00Z`)
  const lastDay = Date.parse(`${isoDay(Date.parse(r.to) - 1)}T00:00:00Z`)
  const days: string[] = []
  for (let t = first; t <= lastDay && days.length < 400; t += DAY_MS) days.push(isoDay(t))
  return days
}

function query(): string {
  const q = new URLSearchParams()
  if (field('from').value) q.set('from', field('from').value)
  if (field('to').value) q.set('to', field('to').value)
  return q.toString() ? `?${q}` : ''
}

/** The `message` of an error body from the API, if it has one. */
function messageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('message' in body)) return undefined
  return typeof body.message === 'string' && body.message ? body.message : undefined
}

async function loadPartners(): Promise<void> {
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
  // Our own API's answer (src/marketplace/routes/report-routes.ts), read as it declares itself.
  const { partners } = (await res.json()) as { partners: PartnerListItem[] }
  const list = select('partner')
  const chosen = list.value
  list.replaceChildren(...partners.map((p) => new Option(`${p.name} (${p.id}, ${p.tier} look)`, p.id)))
  if (partners.some((p) => p.id === chosen)) list.value = chosen
  say(partners.length === 1 ? `Your report: ${partners[0]?.name}.` : `${partners.length} partners.`)
}

function cell(row: HTMLTableRowElement, text: string | number, cls?: string): void {
  const td = row.insertCell()
  td.textContent = String(text)
  if (cls) td.className = cls
}

const percent = (v: number | null): string => (v === null ? 'n/a' : `${(v * 100).toFixed(1)} %`)
const ms = (v: number | null | undefined): string => (v === null || v === undefined ? '' : String(v))

function figures(r: PartnerReport): void {
  const items: Array<[string, string | number]> = [
    ['Requests', r.requests],
    ['Responses with an offer', r.responsesWithOffers],
    ['Offers returned', r.offersReturned],
    ['Offers that won the auction', r.offersWon],
    ['Offers displayed', r.offersDisplayed],
    ['Unique clicks', r.uniqueClicks],
    ['Conversions', r.conversions],
    ['Conversion amount (USD)', usd(r.conversionAmount)],
    [r.pays === 'per_conversion' ? 'Spend (USD, per conversion)' : 'Spend (USD, per click)', usd(r.spend)],
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
function niceMax(v: number): number {
  if (v <= 1) return 1
  const power = 10 ** Math.floor(Math.log10(v))
  return ([1, 2, 5, 10].find((m) => m * power >= v) ?? 10) * power
}

/**
 * One small bar chart per figure: a bar per UTC day of the range, the first and last day (and the middle
 * one on longer ranges) on the x axis, 0, half and the top of the scale on the y axis.
 */
function chart(r: PartnerReport): void {
  const days = daysOf(r)
  const byDate = new Map(r.daily.map((d) => [d.date, d]))
  const series: Array<[DailyFigure, string, string]> = [
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

/** The geometry of every chart (viewBox units): the plot area inside its margins. */
const BOX = { w: 400, h: 200, left: 44, right: 10, top: 14, bottom: 46 }
const PLOT_W = BOX.w - BOX.left - BOX.right
const PLOT_H = BOX.h - BOX.top - BOX.bottom
/** Label text in the charts: 13 units, in the page's text colour. */
const LABEL = { 'font-size': 13, fill: 'currentColor' }

type Attributes = Record<string, string | number>
/** Adds an SVG element to `parent`, with its attributes and text. */
function addSvg(parent: Element, tag: string, attributes: Attributes, text?: string): SVGElement {
  const node = document.createElementNS(SVG, tag)
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, String(v))
  if (text !== undefined) node.textContent = text
  parent.append(node)
  return node
}

/** The height of the plot's top is `max`: the y of a value. */
const yOf = (v: number, max: number): number => BOX.top + PLOT_H - (v * PLOT_H) / max

/** Grid lines and their values on the y axis, and its `count` title. */
function yAxis(svg: SVGSVGElement, max: number): void {
  // Counts are whole: the middle line only when it is a whole number.
  for (const tick of Number.isInteger(max / 2) ? [0, max / 2, max] : [0, max]) {
    const y = yOf(tick, max)
    const line = { x1: BOX.left, x2: BOX.w - BOX.right, y1: y, y2: y }
    addSvg(svg, 'line', { ...line, stroke: 'currentColor', opacity: tick ? 0.15 : 0.5 })
    addSvg(svg, 'text', { x: BOX.left - 6, y: y + 4, ...LABEL, 'text-anchor': 'end' }, String(tick))
  }
  const middle = BOX.top + PLOT_H / 2
  const title = { x: 10, y: middle, ...LABEL, 'text-anchor': 'middle', transform: `rotate(-90 12 ${middle})` }
  addSvg(svg, 'text', title, 'count')
}

/** A bar per day, titled with its day and value; the values written above the bars on short ranges. */
function dayBars(svg: SVGSVGElement, days: string[], values: number[], name: string, color: string): void {
  const max = niceMax(Math.max(0, ...values))
  const band = PLOT_W / days.length
  const barW = Math.max(1, Math.min(band * 0.7, 48))
  days.forEach((date, i) => {
    const v = values[i] ?? 0
    const cx = BOX.left + band * (i + 0.5)
    const bar = addSvg(svg, 'rect', {
      x: cx - barW / 2,
      y: yOf(v, max),
      width: barW,
      // A zero day keeps a hairline, so the day is visibly part of the range.
      height: Math.max(v > 0 ? 1 : 0.5, (v * PLOT_H) / max),
      fill: color,
      opacity: v > 0 ? 1 : 0.35,
    })
    addSvg(bar, 'title', {}, `${date}: ${v} ${name.toLowerCase()}`)
    if (days.length <= 14 && v > 0) {
      addSvg(svg, 'text', { x: cx, y: yOf(v, max) - 3, ...LABEL, 'text-anchor': 'middle' }, String(v))
    }
  })
}

/** The range on the x axis: first and last day, and the middle one on ranges long enough to hold it. */
function xAxis(svg: SVGSVGElement, days: string[]): void {
  const y = BOX.top + PLOT_H + 17
  const day = (x: number, anchor: string, text: string | undefined) =>
    addSvg(svg, 'text', { x, y, ...LABEL, 'text-anchor': anchor }, text ?? '')
  if (days.length === 1) {
    day(BOX.left + PLOT_W / 2, 'middle', days[0])
  } else {
    day(BOX.left, 'start', days[0])
    day(BOX.w - BOX.right, 'end', days[days.length - 1])
    if (days.length >= 7) {
      const mid = Math.floor(days.length / 2)
      day(BOX.left + (PLOT_W / days.length) * (mid + 0.5), 'middle', days[mid])
    }
  }
  const title = { x: BOX.left + PLOT_W / 2, y: BOX.h - 4, ...LABEL, 'text-anchor': 'middle', opacity: 0.75 }
  addSvg(svg, 'text', title, 'UTC day')
}

/** One figure's chart: `values[i]` is its value on `days[i]`. */
function bars(days: string[], values: number[], name: string, color: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', `0 0 ${BOX.w} ${BOX.h}`)
  svg.setAttribute('role', 'img')
  svg.setAttribute(
    'aria-label',
    `${name} per UTC day from ${days[0]} to ${days[days.length - 1]}: ${values.reduce((a, b) => a + b, 0)} in all, at most ${Math.max(0, ...values)} a day`,
  )
  yAxis(svg, niceMax(Math.max(0, ...values)))
  dayBars(svg, days, values, name, color)
  xAxis(svg, days)
  return svg
}

/** A column of a table: the cell's text from the item, and its class. */
type Column<T> = [text: (item: T) => string | number, cls?: string]
const money = (v: number | null): string => (v === null ? '' : usd(v))
const num = <T>(text: (item: T) => string | number): Column<T> => [text, 'num']

/**
 * Replaces a table's rows, one per item; with no item, one row saying so in the table's own words (its
 * `data-empty`), so an empty table never reads as a page that failed to load.
 */
function fill<T>(id: string, items: readonly T[], columns: ReadonlyArray<Column<T>>): void {
  const body = tbody(id)
  body.replaceChildren()
  if (items.length === 0) {
    const td = body.insertRow().insertCell()
    td.colSpan = columns.length
    td.className = 'empty'
    td.textContent = byId(id, HTMLTableElement).dataset.empty ?? 'Nothing in this range.'
  }
  for (const item of items) {
    const row = body.insertRow()
    for (const [text, cls] of columns) cell(row, text(item), cls)
  }
}

type Breakdown = PartnerReport['breakdowns'][keyof PartnerReport['breakdowns']][number]
const BREAKDOWN: ReadonlyArray<Column<Breakdown>> = [
  [(b) => b.value],
  num((b) => b.requests),
  num((b) => b.responsesWithOffers),
  num((b) => b.offers),
  num((b) => b.offersDisplayed),
  num((b) => b.uniqueClicks),
  num((b) => money(b.averageBid)),
]

function tables(r: PartnerReport): void {
  // The spend first: the figure an invoice is reconciled on, in view on a phone.
  fill('spend', r.daily, [
    [(d) => d.date, 'nowrap'],
    num((d) => usd(d.spend)),
    num((d) => d.uniqueClicks),
    num((d) => d.conversions),
  ])
  for (const [dimension, rows] of Object.entries(r.breakdowns)) fill(`by-${dimension}`, rows, BREAKDOWN)
  fill('bids', r.averageBidByProductType, [
    [(b) => b.productType],
    num((b) => b.offers),
    num((b) => usd(b.averageBid)),
  ])
  fill('replies', r.replies, [
    [(x) => x.status],
    num((x) => x.count),
    num((x) => ms(x.averageLatencyMs)),
    num((x) => ms(x.p95LatencyMs)),
    num((x) => ms(x.maxLatencyMs)),
  ])
  fill('causes', r.causes, [
    [(x) => x.status],
    [(x) => x.reason],
    [(x) => x.httpStatus ?? ''],
    num((x) => x.count),
    num((x) => ms(x.averageLatencyMs)),
  ])
  leadsTable(r)
}

type Lead = PartnerReport['leads'][number]
type Offer = Lead['offers'][number]
const yesNo = (v: boolean | undefined): string => (v === undefined ? '' : v ? 'yes' : 'no')

/**
 * Lead-level win/loss: one row per offer of each lead, one per offer a contract check dropped, or one for
 * a lead with neither (its outcome when it timed out).
 */
function leadsTable(r: PartnerReport): void {
  const rows = r.leads.slice(0, 500).flatMap((lead) => [
    ...lead.offers.map((o) => ({ lead, o, outcome: o.outcome })),
    ...Array.from({ length: lead.offersDropped }, () => ({
      lead,
      o: undefined,
      outcome: 'dropped_by_contract_check',
    })),
    ...(lead.offers.length + lead.offersDropped === 0 ? [{ lead, o: undefined, outcome: lead.outcome }] : []),
  ])
  const offer = (pick: (o: Offer) => string | number) => (x: { o?: Offer | undefined }) =>
    x.o ? pick(x.o) : ''
  // Why it won or lost first: what a partner reads on a phone before scrolling the table sideways.
  fill('leads', rows, [
    [(x) => x.outcome ?? '', 'outcome'],
    num(offer((o) => usd(o.rate))),
    num(offer((o) => money(o.gapToWinningBid))),
    num(offer((o) => o.bidRank ?? '')),
    [offer((o) => o.productType)],
    [(x) => x.lead.sentAt.replace('T', ' ').slice(0, 16), 'nowrap'],
    [(x) => x.lead.status],
    [(x) => x.lead.reason ?? ''],
    num((x) => ms(x.lead.latencyMs)),
    [(x) => x.lead.leadId, 'nowrap'],
    [(x) => x.lead.partnerLeadId ?? '', 'nowrap'],
    [offer((o) => o.offerId.slice(0, 8))],
    [(x) => yesNo(x.o?.displayed)],
    [(x) => yesNo(x.o?.clicked)],
    [(x) => yesNo(x.lead.converted)],
  ])
}

async function show(event: Event): Promise<void> {
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
  const body: unknown = await res.json().catch(() => ({}))
  if (!res.ok) {
    say(messageOf(body) ?? `Request failed (${res.status}).`)
    return
  }
  // Our own API's answer (the ledger's PartnerReport, src/marketplace/routes/report-routes.ts).
  const report = body as PartnerReport
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

/** The operator's placements report (docs/placements.md) for the range in the boxes. */
async function showPlacements(): Promise<void> {
  say('Loading placements...')
  const res = await fetch(`${placementsApi}${query()}`, { headers: headers({ Accept: 'application/json' }) })
  const body: unknown = await res.json().catch(() => ({}))
  if (!res.ok) {
    say(messageOf(body) ?? `Request failed (${res.status}).`)
    return
  }
  // Our own API's answer (the ledger's PlacementsReport, src/marketplace/routes/operator-report-routes.ts).
  const report = body as PlacementsReport
  fill('placements', report.rows, [
    [(r) => r.date, 'nowrap'],
    // "(none)" can never be a placement: the pattern allows no parentheses.
    [(r) => r.placement ?? '(none)', 'nowrap'],
    num((r) => r.searches),
    num((r) => r.searchesCompleted),
    num((r) => r.offersShown),
    num((r) => r.clicks),
    num((r) => r.secondLookLeads),
    num((r) => r.secondLookOffersShown),
    num((r) => r.secondLookClicks),
    num((r) => usd(r.earnings)),
  ])
  $('placements-report').hidden = false
  say(
    `Placements from ${report.from.slice(0, 10)} to ${isoDay(Date.parse(report.to) - 1)} (UTC days, both included).`,
  )
}

async function download(path: string, name: string): Promise<void> {
  const res = await fetch(`${api}/${encodeURIComponent(last ?? '')}${path}`, {
    headers: headers({ Accept: 'text/csv' }),
  })
  if (!res.ok) {
    const body: unknown = await res.json().catch(() => ({}))
    say(messageOf(body) ?? `CSV failed (${res.status}).`)
    return
  }
  const a = document.createElement('a')
  a.href = URL.createObjectURL(await res.blob())
  a.download = name
  a.click()
  setTimeout(() => URL.revokeObjectURL(a.href), 1000)
}
function csv(): Promise<void> {
  const q = query()
  const table = select('table').value
  return download(`${q ? `${q}&` : '?'}format=csv&table=${table}`, `partner-${last}-${table}.csv`)
}
function suppression(): Promise<void> {
  const q = query()
  return download(`/suppression${q ? `${q}&` : '?'}format=csv`, `partner-${last}-suppression.csv`)
}

defaultRange()
field('token').addEventListener('change', loadPartners)
$('query').addEventListener('submit', show)
$('csv').addEventListener('click', csv)
$('suppression').addEventListener('click', suppression)
$('show-placements').addEventListener('click', showPlacements)
