/**
 * @module Partner reports through the marketplace's routes, on both ledgers: an offer counts as displayed
 * only when its pixel fires, each partner reads its own report and nobody else's, and conversions posted
 * with a partner's own token.
 */
import { describe, expect, it, vi } from 'vitest'
import { bffErrorSchema } from '../../src/contract/bff.ts'
import type { PartnerReport, SuppressionList } from '../../src/ledger/index.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { OPERATOR_TOKEN, reportsMarketAround } from './support/reports-market.ts'

// Real servers and databases on a shared CI machine: generous, while every wait inside stays short.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const LENDER = 'lender-own-token-0123456789'
const RIVAL = 'rival-own-token-0123456789'

describe.each(LEDGER_DRIVERS)('impressions, private reports and conversions on $name', (driver) => {
  const m = reportsMarketAround(driver, {
    partners: [
      { id: 'lender', name: 'Lender', tier: 'first', behavior: 'approve', latencyMs: 1 },
      { id: 'rival', name: 'Rival', tier: 'first', behavior: 'approve', latencyMs: 1, bidMultiplier: 0.5 },
    ],
    tokens: { lender: LENDER, rival: RIVAL },
  })

  const get = (url: string, token?: string) => m.get(url, token)
  const report = async (id: string, token: string) =>
    (await (await get(`/api/reports/partners/${id}`, token)).json()) as PartnerReport
  const lead = () =>
    m.settle<{ uuid: string; url: string; unmonetizedUrl: string; impressionTrackingPixelUrls: string[] }>()

  describe('offers displayed means displayed', () => {
    it('an offer counts as displayed once its pixel fires, once per lead and offer; a lead never shown counts none', async () => {
      const before = await report('lender', OPERATOR_TOKEN)
      const shown = await lead()
      await lead() // settled, won, never rendered
      const pixel = shown.offers[0]?.impressionTrackingPixelUrls[0] ?? ''
      const first = await get(pixel)
      expect(first.status).toBe(200)
      expect(first.headers.get('content-type')).toBe('image/gif')
      expect(first.headers.get('cache-control')).toBe('no-store')
      expect((await first.arrayBuffer()).byteLength).toBe(42)
      expect((await get(pixel)).status).toBe(200)
      const after = await report('lender', OPERATOR_TOKEN)
      expect(after.offersDisplayed - before.offersDisplayed).toBe(1)
      expect(after.offersWon - before.offersWon).toBe(2 * shown.offers.length)
      const leadRow = after.leads.find((l) => l.leadId === shown.leadId)
      expect(leadRow?.offers.filter((o) => o.displayed)).toHaveLength(1)
    })

    it('a forged pixel, or a click token used as a pixel, counts nothing', async () => {
      const before = await report('lender', OPERATOR_TOKEN)
      const shown = await lead()
      const click = new URL(shown.offers[0]?.url ?? '').pathname.split('/').pop()
      const asPixel = await get(`/api/impressions/${click}`)
      expect(asPixel.status).toBe(404)
      expect(asPixel.headers.get('content-type')).toBe('image/gif')
      expect((await get('/api/impressions/not-a-token')).status).toBe(404)
      const pixel = new URL(shown.offers[0]?.impressionTrackingPixelUrls[0] ?? '').pathname.split('/').pop()
      expect((await get(`/api/clicks/${pixel}`)).status).toBe(404)
      expect((await report('lender', OPERATOR_TOKEN)).offersDisplayed).toBe(before.offersDisplayed)
    })

    it('a preview click (unmonetizedUrl) redirects to the partner and is never a unique click', async () => {
      const before = await report('lender', OPERATOR_TOKEN)
      const shown = await lead()
      const offer = shown.offers[0]
      const preview = await get(offer?.unmonetizedUrl ?? '')
      expect(preview.status).toBe(302)
      expect(preview.headers.get('location')).toMatch(new RegExp(`^${m.partners.url}/landing/lender/`))
      expect((await report('lender', OPERATOR_TOKEN)).uniqueClicks).toBe(before.uniqueClicks)
      expect((await get(offer?.url ?? '')).status).toBe(302)
      expect((await report('lender', OPERATOR_TOKEN)).uniqueClicks).toBe(before.uniqueClicks + 1)
    })
  })

  describe('reports are private to each partner', () => {
    it("a partner's token reads its own report only: another partner's id is a 404, the list holds only itself", async () => {
      await lead()
      const own = await get('/api/reports/partners/lender', LENDER)
      expect(own.status).toBe(200)
      expect(((await own.json()) as PartnerReport).partnerId).toBe('lender')
      const other = await get('/api/reports/partners/rival', LENDER)
      expect(other.status).toBe(404)
      // The same answer as for a partner that does not exist: nothing about the rival is disclosed.
      const none = await get('/api/reports/partners/nobody', LENDER)
      expect(bffErrorSchema.parse(await other.json()).message).toBe('No partner "rival" in the registry.')
      expect(none.status).toBe(404)
      expect((await get('/api/reports/partners/rival/suppression', LENDER)).status).toBe(404)
      expect((await get('/api/reports/partners/rival?format=csv', LENDER)).status).toBe(404)
      expect(await (await get('/api/reports/partners', LENDER)).json()).toEqual({
        partners: [{ id: 'lender', name: 'Lender', tier: 'first', enabled: true }],
      })
      expect(await (await get('/api/reports/partners', RIVAL)).json()).toEqual({
        partners: [{ id: 'rival', name: 'Rival', tier: 'first', enabled: true }],
      })
    })

    it('REPORTS_TOKEN stays the operator token that reads every partner', async () => {
      expect((await get('/api/reports/partners/rival', OPERATOR_TOKEN)).status).toBe(200)
      expect((await get('/api/reports/partners/lender', OPERATOR_TOKEN)).status).toBe(200)
      const list = (await (await get('/api/reports/partners', OPERATOR_TOKEN)).json()) as {
        partners: unknown[]
      }
      expect(list.partners).toHaveLength(2)
      expect((await get('/api/reports/partners/lender', `${LENDER}x`)).status).toBe(401)
    })

    it('the suppression export lists the leads that did not click, as JSON and CSV', async () => {
      const clicked = await lead()
      const idle = await lead()
      expect((await get(clicked.offers[0]?.url ?? '')).status).toBe(302)
      const list = (await (
        await get('/api/reports/partners/lender/suppression', LENDER)
      ).json()) as SuppressionList
      const ids = list.leads.map((l) => l.leadId)
      expect(ids).toContain(idle.leadId)
      expect(ids).not.toContain(clicked.leadId)
      expect(list.leads.find((l) => l.leadId === idle.leadId)?.partnerLeadId).toMatch(/^.+$/)
      // The rival's offers lost: every lead is on its list, the clicked one too (it clicked the lender's).
      const rival = (await (
        await get('/api/reports/partners/rival/suppression', RIVAL)
      ).json()) as SuppressionList
      expect(rival.leads.map((l) => l.leadId)).toEqual(expect.arrayContaining([clicked.leadId, idle.leadId]))
      const csv = await get('/api/reports/partners/lender/suppression?format=csv', LENDER)
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
      const text = await csv.text()
      expect(text.split('\r\n')[0]).toBe('partner_lead_id,lead_id,sent_at')
      expect(text).toContain(idle.leadId)
      expect(text).not.toContain(clicked.leadId)
    })
  })

  describe('conversions', () => {
    const post = (body: unknown, token?: string) => m.postConversion(body, token)

    it('a partner posts a conversion for its own lead id once; a repeat changes nothing; the report counts it', async () => {
      const shown = await lead()
      await get(shown.offers[0]?.impressionTrackingPixelUrls[0] ?? '')
      const sent = (await report('lender', OPERATOR_TOKEN)).leads.find((l) => l.leadId === shown.leadId)
      const partnerLeadId = sent?.partnerLeadId ?? ''
      const before = await report('lender', LENDER)
      // Converted a second after the lead was sent: a conversion never precedes its lead.
      const convertedAt = new Date(Date.parse(sent?.sentAt ?? '') + 1000).toISOString()
      const first = await post({ lead_id: partnerLeadId, amount: 35.5, converted_at: convertedAt }, LENDER)
      expect(first.status).toBe(201)
      const created = (await first.json()) as { conversion: { id: string; lead_id: string; amount: number } }
      expect(created.conversion).toMatchObject({ lead_id: partnerLeadId, amount: 35.5 })
      const again = await post({ lead_id: partnerLeadId, amount: 99 }, LENDER)
      expect(again.status).toBe(200)
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(await again.json()).toEqual(created)
      const after = await report('lender', LENDER)
      expect(after.conversions - before.conversions).toBe(1)
      expect(after.conversionAmount - before.conversionAmount).toBeCloseTo(35.5)
      expect(after.leads.find((l) => l.leadId === shown.leadId)?.converted).toBe(true)
      // A postback counts for the partner whose token sent it, never for another partner.
      const rivalBefore = await report('rival', RIVAL)
      expect((await post({ lead_id: 'lender-only-id' }, RIVAL)).status).toBe(404)
      expect((await report('rival', RIVAL)).conversions).toBe(rivalBefore.conversions)
      expect((await report('lender', LENDER)).conversions).toBe(after.conversions)
    })

    it('refuses no token (401), the operator token (403), an unknown lead id (404) and a bad body (400 naming each field)', async () => {
      expect((await post({ lead_id: 'x' })).status).toBe(401)
      const operator = await post({ lead_id: 'x' }, OPERATOR_TOKEN)
      expect(operator.status).toBe(403)
      expect(bffErrorSchema.parse(await operator.json()).message).toMatch(/partner's own token/)
      const unknown = await post({ lead_id: 'never-seen' }, LENDER)
      expect(unknown.status).toBe(404)
      const bad = await post({ lead_id: '', amount: -1, converted_at: 'yesterday', extra: 1 }, LENDER)
      expect(bad.status).toBe(400)
      const fields = bffErrorSchema.parse(await bad.json()).errors?.map((e) => e.field)
      expect(fields).toEqual(expect.arrayContaining(['lead_id', 'amount', 'converted_at']))
      expect((await post('{nope', LENDER)).status).toBe(400)
      const future = await post({ lead_id: 'x', converted_at: '2999-01-01T00:00:00Z' }, LENDER)
      expect(bffErrorSchema.parse(await future.json()).errors?.[0]?.field).toBe('converted_at')
    })
  })
})
