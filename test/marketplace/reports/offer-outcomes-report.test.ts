// @vitest-environment jsdom
/**
 * @module Issue 42's done-when, on both ledgers and fake time: in one lead under the phase 1 rule, Sim
 * Quick bids 14.50 and Sim Steady 16.67 for installment loans, so Quick's offer is `outbid`, bid rank 2,
 * 2.17 behind, in its JSON, its CSV and on the reports page; Quick's other offer (debt relief, the only one
 * of its type) is `ruled_out_by_phase`; a partner answering after its 12 s window is `timed_out`; one whose
 * bid is over the cap is `dropped_by_contract_check`. A partner reads only its own offers, never the lead's
 * PII nor another partner's name; the winner's click is its spend, and the breakdowns count the lead.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createdSearchSchema } from '../../../src/contract/bff.ts'
import type { Ledger, PartnerReport } from '../../../src/ledger/index.ts'
import { reportPageHtml } from '../../../src/marketplace/reports/report-page.ts'
import { LEDGER_DRIVERS } from '../../ledger/support/ledger-drivers.ts'
import { createFakeClock, type FakeClock } from '../../support/fake-clock.ts'
import { type FakeTimeMarket, startFakeTimeMarket } from '../support/fake-time-harness.ts'
import { KNOWN_EMAIL, KNOWN_SSN, makeLead } from '../support/harness.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const OPERATOR = 'operator-reports-token-0123456789'
const QUICK = 'quick-own-reports-token-0123456789'
const QUICK_COPY = {
  name: 'Sim Quick Loans',
  display_name: 'Sim Quick Loans',
  offer_details: 'Funds in a day',
  logo_src: 'https://sim-quick.example/logo.png',
}

describe.each(LEDGER_DRIVERS)('offer outcomes in partner reports on $name (fake time)', (driver) => {
  let clock: FakeClock
  let ledger: Ledger
  let m: FakeTimeMarket
  let leadId: string
  beforeAll(async () => {
    clock = createFakeClock()
    ledger = await driver.open({ timers: clock.timers })
    m = await startFakeTimeMarket({
      ledger,
      clock,
      config: { winnerPolicy: 'phase1', reportsToken: OPERATOR },
      partners: [
        {
          id: 'sim-quick',
          tier: 'second',
          latencyMs: 100,
          status: 'approved',
          // Two product types: the interface's conditional fields are then required.
          offers: [
            { rate: 14.5, product_type: 'installment_loan', ...QUICK_COPY },
            { rate: 11, product_type: 'debt_relief', ...QUICK_COPY },
          ],
          reportsToken: QUICK,
        },
        {
          id: 'sim-steady',
          tier: 'second',
          latencyMs: 200,
          status: 'approved',
          offers: [{ rate: 16.67, product_type: 'installment_loan' }],
        },
        { id: 'sim-slow', tier: 'second', latencyMs: 13_000, status: 'approved', rate: 30 },
        { id: 'sim-capped', tier: 'second', latencyMs: 100, status: 'approved', rate: 20_000 },
      ],
    })
    const res = await m.submit(makeLead())
    expect(res.status).toBe(201)
    const created = createdSearchSchema.parse(await res.json())
    leadId = created.rateTable.leadUuid
    for (const id of ['sim-quick', 'sim-steady', 'sim-slow', 'sim-capped']) await m.whenReceived(id)
    await clock.tick(12_000)
    await m.marketplace.settled(created.rateTable.uuid)
    // The visitor clicks the one offer shown (Steady's): Steady owes its bid for it.
    const table = await (await m.poll(created.rateTable.uuid, created.accessToken)).json()
    expect(table.offers).toHaveLength(1)
    const click = new URL(table.offers[0].url)
    expect((await m.app.request(click.pathname)).status).toBe(302)
  })
  afterAll(async () => {
    await m?.close()
    await ledger?.close()
  })

  const get = (path: string, token: string, accept = 'application/json') =>
    m.app.request(`http://bff.test/api/reports/partners${path}`, {
      headers: { Authorization: `Bearer ${token}`, Accept: accept },
    })
  const report = async (id: string, token: string) => {
    const res = await get(`/${id}`, token)
    expect(res.status).toBe(200)
    return (await res.json()) as PartnerReport
  }
  const entry = (r: PartnerReport) => r.leads.find((l) => l.leadId === leadId)

  it("JSON: Quick's 14.50 is outbid, rank 2, 2.17 behind; its debt-relief offer ruled out by phase 1", async () => {
    const quick = await report('sim-quick', QUICK)
    expect(entry(quick)?.outcome).toBeNull()
    expect(entry(quick)?.offers.map(({ offerId: _, ...o }) => o)).toEqual([
      {
        productType: 'installment_loan',
        rate: 14.5,
        result: 'lost',
        outcome: 'outbid',
        bidRank: 2,
        gapToWinningBid: 2.17,
        displayed: false,
        clicked: false,
      },
      {
        productType: 'debt_relief',
        rate: 11,
        result: 'lost',
        outcome: 'ruled_out_by_phase',
        bidRank: 1,
        gapToWinningBid: null,
        displayed: false,
        clicked: false,
      },
    ])
    // Its own offers only: nothing names the winner, nothing of the lead's identity.
    const text = JSON.stringify(quick)
    for (const secret of ['sim-steady', 'Quentina', 'Probeworth', KNOWN_SSN, KNOWN_EMAIL, '95814'])
      expect(text).not.toContain(secret)
    expect(quick.spend).toBe(0)
  })

  it('JSON: the winner won, rank 1, gap 0, and owes its bid for the click; a late reply timed out; a bid over the cap was dropped', async () => {
    const steady = await report('sim-steady', OPERATOR)
    expect(entry(steady)?.offers).toMatchObject([
      { outcome: 'won', bidRank: 1, gapToWinningBid: 0, clicked: true },
    ])
    expect(steady.spend).toBe(16.67)
    expect(steady.daily.map((d) => d.spend)).toEqual([16.67])
    const slow = entry(await report('sim-slow', OPERATOR))
    expect(slow).toMatchObject({ status: 'timeout', outcome: 'timed_out', offers: [] })
    const capped = entry(await report('sim-capped', OPERATOR))
    expect(capped).toMatchObject({
      status: 'error',
      outcome: 'dropped_by_contract_check',
      offersDropped: 1,
      offers: [],
    })
  })

  it('JSON: the breakdowns count the lead by state, credit band, purpose and amount band; placements not shared', async () => {
    const quick = await report('sim-quick', QUICK)
    const one = {
      requests: 1,
      responsesWithOffers: 1,
      offers: 2,
      offersDisplayed: 0,
      uniqueClicks: 0,
      averageBid: 12.75,
    }
    expect(quick.breakdowns).toEqual({
      state: [{ value: 'CA', ...one }],
      creditBand: [{ value: 'fair', ...one }],
      loanPurpose: [{ value: 'debt_consolidation', ...one }],
      amountBand: [{ value: '10k_25k', ...one }],
      // Quick is not sent placements (no sendPlacement): one row says so, whatever the lead's was.
      placement: [{ value: 'not_shared', ...one }],
    })
  })

  it("CSV: the same outcomes, ranks and gaps in Quick's win/loss, and the timeout's row", async () => {
    const csv = await (await get('/sim-quick?format=csv', QUICK, 'text/csv')).text()
    const [header, ...rows] = csv.trimEnd().split('\r\n')
    expect(header).toContain('result,outcome,bid_rank,gap_to_winning_bid_usd,displayed')
    expect(rows.filter((r) => r.startsWith(leadId)).map((r) => r.split(',').slice(9))).toEqual([
      ['installment_loan', '14.5', 'lost', 'outbid', '2', '2.17', 'false', 'false'],
      ['debt_relief', '11', 'lost', 'ruled_out_by_phase', '1', '', 'false', 'false'],
    ])
    const slow = await (await get('/sim-slow?format=csv', OPERATOR, 'text/csv')).text()
    expect(slow.split('\r\n')[1]).toMatch(/,timeout,.*,timed_out,,,,$/)
  })

  it('the reports page: the outcome, the rank and the gap in the win/loss table', async () => {
    const html = reportPageHtml('')
    document.body.innerHTML = html.slice(html.indexOf('<main>'), html.indexOf('</body>'))
    // The page's requests go to the marketplace's routes, as from the browser.
    vi.stubGlobal('fetch', (url: string, init: RequestInit) =>
      // The page's API path is relative to its own (`//api/...` under jsdom's `/`).
      m.app.request(`http://bff.test${url.replace(/^\/+/, '/')}`, init),
    )
    try {
      // A fresh module per ledger: it wires the page it finds when imported.
      vi.resetModules()
      await import('../../../src/marketplace/reports/report-page-app.ts')
      const $ = (id: string) => document.getElementById(id) as HTMLElement
      ;($('token') as HTMLInputElement).value = QUICK
      $('token').dispatchEvent(new Event('change'))
      await vi.waitFor(() => expect($('status').textContent).toBe('Your report: sim-quick.'))
      // The lead's day on the fake clock.
      const day = entry(await report('sim-quick', QUICK))?.sentAt.slice(0, 10) ?? ''
      ;($('from') as HTMLInputElement).value = day
      ;($('to') as HTMLInputElement).value = day
      ;($('query') as HTMLFormElement).dispatchEvent(new Event('submit', { cancelable: true }))
      await vi.waitFor(() => expect($('report').hidden).toBe(false))
      const rows = [...(($('leads') as HTMLTableElement).tBodies[0]?.rows ?? [])].map((row) =>
        [...row.cells].map((c) => c.textContent),
      )
      // Outcome, bid, gap, bid rank, product type: the first columns, in view on a phone.
      expect(rows.map((r) => r.slice(0, 5))).toEqual([
        ['outbid', '$14.50', '$2.17', '2', 'installment_loan'],
        ['ruled_out_by_phase', '$11.00', '', '1', 'debt_relief'],
      ])
      expect($('report').textContent).not.toContain('sim-steady')
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
