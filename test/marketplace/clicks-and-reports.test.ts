import { randomUUID } from 'node:crypto'
import pino from 'pino'
import { describe, expect, it, vi } from 'vitest'
import { bffErrorSchema } from '../../src/contract/bff.ts'
import { offerSchema } from '../../src/contract/offer-search.ts'
import type { Ledger, PartnerReport } from '../../src/ledger/index.ts'
import { createClickSigner, createMarketplace } from '../../src/marketplace/index.ts'
import { REPORT_TABLES, reportToCsv } from '../../src/marketplace/reports/report-csv.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import {
  type Harness,
  harnessAround,
  marketplaceApi,
  SECRET,
  startHarness,
  submitAndSettle,
} from './support/harness.ts'

// Real servers and databases on a shared CI machine: generous, while every wait inside stays short.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const TOKEN = 'reports-secret-token'

describe.each(LEDGER_DRIVERS)('clicks and partner reports on $name', (driver) => {
  let ledger: Ledger
  let h: Harness
  harnessAround(
    driver,
    {
      partners: [
        { id: 'lender', name: 'Lender', tier: 'first', behavior: 'approve', latencyMs: 2 },
        { id: 'rival', name: 'Rival', tier: 'first', behavior: 'approve', latencyMs: 2, bidMultiplier: 0.5 },
      ],
      config: { winnerPolicy: 'phase2', publicBaseUrl: 'https://bff.example.com/' },
    },
    (harness, opened) => {
      h = harness
      ledger = opened
    },
  )

  const get = (path: string, headers: Record<string, string> = {}) =>
    h.app.request(`http://bff.test${path}`, { headers })
  const report = (
    id: string,
    query = '',
    headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` },
  ) => get(`/api/reports/partners/${id}${query}`, headers)

  describe('offers in the widget shape', () => {
    it('map to offerSchema with both links on our click route; the partner click_url never reaches the browser', async () => {
      const { final } = await submitAndSettle(h)
      expect(final.offers.length).toBe(2)
      for (const raw of final.offers) {
        const offer = offerSchema.parse(raw)
        expect(offer).toMatchObject({
          status: 'active',
          isMonetized: true,
          version: 1,
          financialInstitutionUuid: 'lender',
        })
        expect(offer.url).toMatch(
          /^https:\/\/bff\.example\.com\/api\/clicks\/[0-9a-f-]{36}\.[0-9a-z]+\.[\w-]{43}$/,
        )
        // The preview link redirects too, on a token of its own that is never counted.
        expect(offer.unmonetizedUrl).toMatch(
          /^https:\/\/bff\.example\.com\/api\/clicks\/[0-9a-f-]{36}\.[0-9a-z]+\.[\w-]{43}$/,
        )
        expect(offer.unmonetizedUrl).not.toBe(offer.url)
        expect(offer.impressionTrackingPixelUrls).toEqual([
          expect.stringMatching(
            /^https:\/\/bff\.example\.com\/api\/impressions\/[0-9a-f-]{36}\.[0-9a-z]+\.[\w-]{43}$/,
          ),
        ])
        // The lender's name (its reply's display_name), never a product name.
        expect(offer.financialInstitutionDisplayName).toBe('Lender')
      }
      expect(JSON.stringify(final)).not.toContain('/landing/')
    })
  })

  describe('clicks', () => {
    it('302 to the partner click_url, counted once per lead and offer however often it is clicked', async () => {
      const { final } = await submitAndSettle(h)
      const url = new URL(String(final.offers[0]?.url))
      const before = (await (await report('lender')).json()) as PartnerReport
      const first = await get(url.pathname)
      expect(first.status).toBe(302)
      expect(first.headers.get('location')).toMatch(new RegExp(`^${h.partners.url}/landing/lender/`))
      expect(first.headers.get('referrer-policy')).toBe('no-referrer')
      const second = await get(url.pathname)
      expect(second.status).toBe(302)
      const after = (await (await report('lender')).json()) as PartnerReport
      expect(after.uniqueClicks - before.uniqueClicks).toBe(1)
    })

    it('a forged or altered token is a 404', async () => {
      const { final } = await submitAndSettle(h)
      const path = new URL(String(final.offers[0]?.url)).pathname
      const forged = createClickSigner('another-secret-entirely-0123456789').sign(
        path.split('/').pop()?.slice(0, 36) ?? '',
      )
      expect((await get(`/api/clicks/${forged}`)).status).toBe(404)
      const altered = `${path.slice(0, -1)}${path.endsWith('A') ? 'B' : 'A'}`
      expect((await get(altered)).status).toBe(404)
      expect((await get('/api/clicks/not-a-token')).status).toBe(404)
      const body = bffErrorSchema.parse(await (await get(`/api/clicks/${forged}`)).json())
      expect(body.code).toBe('not_found')
    })

    it('an expired token is a 404', async () => {
      const { final } = await submitAndSettle(h)
      const offerId = String(final.offers[0]?.uuid)
      const past = createClickSigner(SECRET, {
        ttlMs: 1_000,
        timers: { now: () => Date.now() - 5_000 },
      }).sign(offerId)
      expect((await get(`/api/clicks/${past}`)).status).toBe(404)
      const fresh = createClickSigner(SECRET, { ttlMs: 60_000 }).sign(offerId)
      expect((await get(`/api/clicks/${fresh}`)).status).toBe(302)
    })

    it('an offer that lost the auction has no working link, even with a valid signature', async () => {
      const { created } = await submitAndSettle(h)
      const rivalOffer = (
        await h.ledger.partnerReport({
          partnerId: 'rival',
          from: new Date(0),
          to: new Date(Date.now() + 1000),
        })
      ).leads.find((l) => l.leadId === created.rateTable.leadUuid)?.offers[0]
      expect(rivalOffer?.result).toBe('lost')
      const token = createClickSigner(SECRET).sign(rivalOffer?.offerId ?? '')
      expect((await get(`/api/clicks/${token}`)).status).toBe(404)
    })
  })

  describe('reports', () => {
    it('needs the bearer token: none or a wrong one is 401', async () => {
      const none = await report('lender', '', {})
      expect(none.status).toBe(401)
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/)
      expect(bffErrorSchema.parse(await none.json()).code).toBe('unauthorized')
      expect((await report('lender', '', { Authorization: `Bearer ${TOKEN}x` })).status).toBe(401)
      expect((await report('lender', '', { Authorization: TOKEN })).status).toBe(401)
    })

    it('does not exist without REPORTS_TOKEN', async () => {
      const m = createMarketplace({
        config: { winnerPolicy: 'phase1', sandboxMode: true },
        ledger,
        registry: h.partners.entries,
        secret: SECRET,
        logger: pino({ level: 'silent' }),
      })
      const api = marketplaceApi(m)
      const res = await api.request('/api/reports/partners/lender', {
        headers: { Authorization: 'Bearer anything' },
      })
      expect(res.status).toBe(404)
      await m.close()
    })

    it('gives every docs/partner-interface.md figure as JSON', async () => {
      const fresh = await startHarness({
        ledger,
        partners: [
          {
            id: `solo-${randomUUID().slice(0, 6)}`,
            name: 'Solo',
            tier: 'first',
            behavior: 'approve',
            latencyMs: 1,
          },
        ],
        config: { winnerPolicy: 'phase2' },
      })
      try {
        const id = fresh.partners.entries[0]?.id ?? ''
        const { final } = await submitAndSettle(fresh)
        await submitAndSettle(fresh)
        // Only the first lead's offers are rendered (their pixels fire, one twice); one of them is clicked.
        const pixels = final.offers.map((o) => String((o.impressionTrackingPixelUrls as string[])[0]))
        for (const pixel of [...pixels, pixels[0]]) await fresh.app.request(new URL(String(pixel)).pathname)
        await fresh.app.request(new URL(String(final.offers[0]?.url)).pathname)
        const res = await fresh.app.request(`/api/reports/partners/${id}`, {
          headers: { Authorization: `Bearer ${TOKEN}` },
        })
        expect(res.status).toBe(200)
        const body = (await res.json()) as PartnerReport
        expect(body).toMatchObject({
          partnerId: id,
          requests: 2,
          responsesWithOffers: 2,
          offersReturned: 4,
          offersWon: 4,
          offersDisplayed: 2,
          uniqueClicks: 1,
          conversions: 0,
          winRate: 1,
          clickThroughRate: 0.5,
          replies: [expect.objectContaining({ status: 'approved', count: 2 })],
          averageBidByProductType: [
            { productType: 'debt_relief', offers: 2, averageBid: 12 },
            { productType: 'installment_loan', offers: 2, averageBid: 14.5 },
          ],
        })
        expect(body.leads).toHaveLength(2)
        expect(body.leads.flatMap((l) => l.offers).filter((o) => o.clicked)).toHaveLength(1)
        expect(body.daily).toHaveLength(1)
      } finally {
        await fresh.close()
      }
    })

    it('gives CSV for Accept: text/csv and for ?format=csv', async () => {
      await submitAndSettle(h)
      const byAccept = await report('lender', '', { Authorization: `Bearer ${TOKEN}`, Accept: 'text/csv' })
      expect(byAccept.headers.get('content-type')).toMatch(/^text\/csv/)
      // One table per file: the lead-level win/loss by default, one header row, no blank-line sections.
      const text = await byAccept.text()
      expect(text).toMatch(
        /^lead_id,partner_lead_id,sent_at,reply_status,reason,http_status,latency_ms,converted,offer_id,product_type,rate_usd,result,outcome,bid_rank,gap_to_winning_bid_usd,displayed,clicked\r\n/,
      )
      expect(text).toMatch(/,installment_loan,14\.5,won,won,1,0\.00,false,(true|false)\r\n/)
      expect(text).not.toContain('\r\n\r\n')
      expect(byAccept.headers.get('content-disposition')).toMatch(
        /filename="partner-lender-leads-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"/,
      )
      const summary = await (await report('lender', '?format=csv&table=summary')).text()
      expect(summary).toMatch(/^partner_id,from,to,metric,value\r\nlender,[^,]+,[^,]+,requests,\d+\r\n/)
      expect(summary).toMatch(/\r\nlender,[^,]+,[^,]+,offers_displayed,\d+\r\n/)
      // Every table is the JSON report of the same range, row for row (the rows themselves: report-csv.test.ts).
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
      const range = `from=${day(-1)}&to=${day(1)}`
      const json = (await (await report('lender', `?${range}`)).json()) as PartnerReport
      expect(json.averageBidByProductType.length).toBeGreaterThan(0)
      for (const table of REPORT_TABLES) {
        const res = await report('lender', `?format=csv&table=${table}&${range}`)
        expect(res.status, table).toBe(200)
        expect(await res.text(), table).toBe(reportToCsv(json, table))
      }
      const wrong = await report('lender', '?format=csv&table=everything')
      expect(wrong.status).toBe(400)
      expect(bffErrorSchema.parse(await wrong.json()).message).toMatch(
        /table="everything" is not a report table: send one of summary, daily, products, replies, causes, leads/,
      )
      const byQuery = await report('lender', '?format=csv')
      expect(byQuery.headers.get('content-type')).toMatch(/^text\/csv/)
    })

    it('filters by from/to, and refuses a bad range or an unknown partner', async () => {
      const empty = (await (await report('lender', '?from=2020-01-01&to=2020-01-31')).json()) as PartnerReport
      expect(empty).toMatchObject({
        requests: 0,
        from: '2020-01-01T00:00:00.000Z',
        to: '2020-02-01T00:00:00.000Z',
      })
      const bad = await report('lender', '?from=yesterday')
      expect(bad.status).toBe(400)
      const badBody = bffErrorSchema.parse(await bad.json())
      expect(badBody.errors?.[0]?.field).toBe('from')
      expect(badBody.message).toMatch(/^The report range is invalid: from="yesterday" is neither a date/)
      expect((await report('lender', '?from=2026-03-02&to=2026-03-01')).status).toBe(400)
      expect((await report('nobody')).status).toBe(404)
    })

    it('lists the partners for the page', async () => {
      const res = await get('/api/reports/partners', { Authorization: `Bearer ${TOKEN}` })
      expect(await res.json()).toEqual({
        partners: [
          { id: 'lender', name: 'Lender', tier: 'first', enabled: true },
          { id: 'rival', name: 'Rival', tier: 'first', enabled: true },
        ],
      })
    })
  })

  describe('/reports page', () => {
    it('is self-contained and CSP-friendly: no inline script or style, its script and stylesheet on routes of their own', async () => {
      const page = await get('/reports')
      expect(page.status).toBe(200)
      const csp = page.headers.get('content-security-policy') ?? ''
      expect(csp).toContain("script-src 'self'")
      expect(csp).not.toContain('unsafe-inline')
      const html = await page.text()
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/)
      expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/)
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
      const js = await get('/reports/app.js')
      expect(js.headers.get('content-type')).toMatch(/^text\/javascript/)
      expect(await js.text()).toContain("createElementNS(SVG, 'svg')")
      expect((await get('/reports/app.css')).headers.get('content-type')).toMatch(/^text\/css/)
    })
  })
})
