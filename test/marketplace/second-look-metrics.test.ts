/**
 * @module Issue 33: the second look on `/metrics`. One lead to five first-look partners (one of each
 * outcome) on a fake clock, then its pixels, a click and a conversion: every counter moves by exactly what
 * happened, latencies land in the histogram, and no label carries a lead id, a uuid or a URL.
 */
import { Registry } from 'prom-client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import { instrumentLedger, type Ledger } from '../../src/ledger/index.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { createFakeClock } from '../support/fake-clock.ts'
import { type Harness, makeLead, startHarness } from './support/harness.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

/** One sample's value in the text `/metrics` serves, by sample name and exact label set. */
async function sample(registry: Registry, name: string, labels: Record<string, string>): Promise<number> {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',')
  for (const line of (await registry.metrics()).split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (match?.[1] !== name) continue
    const got = (match[2] ?? '').split(',').filter(Boolean).sort().join(',')
    if (got === wanted) return Number(match[3])
  }
  throw new Error(`${name}{${wanted}} has no sample`)
}

describe.each(LEDGER_DRIVERS)('second-look metrics on $name', (driver) => {
  let ledger: Ledger
  let h: Harness
  const registry = new Registry()
  const clock = createFakeClock()
  beforeAll(async () => {
    ledger = instrumentLedger(await driver.open(), registry)
    h = await startHarness({
      ledger,
      clock,
      metricsRegistry: registry,
      config: { deadlineMs: 2_000 },
      partners: [
        { id: 'm-approve', name: 'M Approve', tier: 'first', behavior: 'approve', latencyMs: 40 },
        { id: 'm-reject', name: 'M Reject', tier: 'first', behavior: 'reject', latencyMs: 0 },
        { id: 'm-error', name: 'M Error', tier: 'first', behavior: 'http-error', latencyMs: 0 },
        { id: 'm-leak', name: 'M Leak', tier: 'first', behavior: 'approve-ssn-click-url', latencyMs: 0 },
        {
          id: 'm-slow',
          name: 'M Slow',
          tier: 'first',
          behavior: 'approve',
          latencyMs: 5_000,
          timeoutMs: 300,
        },
        { id: 'm-second', name: 'M Second', tier: 'second', behavior: 'approve', latencyMs: 0 },
      ],
    })
  }, 30_000)
  afterAll(async () => {
    await h?.close()
    await ledger?.close()
  })

  it('counts every partner request by outcome, the lead, its winners and its deliveries', async () => {
    // Every series is there before the first lead, at 0: a rate or an alert sees a partner that never answered.
    expect(
      await sample(registry, 'second_look_partner_requests_total', {
        partner: 'm-second',
        tier: 'second',
        outcome: 'timeout',
      }),
    ).toBe(0)
    expect(await sample(registry, 'second_look_leads_total', { outcome: 'with_offers' })).toBe(0)

    const res = await h.submit(makeLead())
    expect(res.status).toBe(201)
    const created = createdSearchSchema.parse(await res.json())
    expect(await sample(registry, 'second_look_leads_in_flight', {})).toBe(1)
    await clock.runUntil(h.marketplace.settled(created.rateTable.uuid), { stepMs: 20 })
    expect(await sample(registry, 'second_look_leads_in_flight', {})).toBe(0)

    const outcome = (partner: string, value: string) =>
      sample(registry, 'second_look_partner_requests_total', { partner, tier: 'first', outcome: value })
    expect(await outcome('m-approve', 'approved')).toBe(1)
    expect(await outcome('m-reject', 'rejected')).toBe(1)
    expect(await outcome('m-error', 'error')).toBe(1)
    expect(await outcome('m-leak', 'dropped')).toBe(1)
    expect(await outcome('m-slow', 'timeout')).toBe(1)
    expect(await outcome('m-slow', 'approved')).toBe(0)
    // First look offered: the second-look partner was never asked.
    expect(
      await sample(registry, 'second_look_partner_requests_total', {
        partner: 'm-second',
        tier: 'second',
        outcome: 'approved',
      }),
    ).toBe(0)
    // Latency on the fake clock: the approving partner answered after its 40 ms (the clock moves in 20 ms
    // steps while the reply travels), the slow one was timed out at exactly its 300 ms window.
    const histogram = (partner: string, part: string, extra: Record<string, string> = {}) =>
      sample(registry, `second_look_partner_request_duration_seconds_${part}`, {
        partner,
        tier: 'first',
        ...extra,
      })
    expect(await histogram('m-approve', 'count')).toBe(1)
    expect(await histogram('m-approve', 'sum')).toBeGreaterThanOrEqual(0.04)
    expect(await histogram('m-approve', 'sum')).toBeLessThan(0.3)
    expect(await histogram('m-slow', 'sum')).toBe(0.3)
    expect(await histogram('m-slow', 'bucket', { le: '0.25' })).toBe(0)
    expect(await histogram('m-slow', 'bucket', { le: '0.5' })).toBe(1)

    expect(await sample(registry, 'second_look_leads_total', { outcome: 'with_offers' })).toBe(1)
    expect(await sample(registry, 'second_look_leads_total', { outcome: 'no_offers' })).toBe(0)
    const final = (await (await h.poll(created.rateTable.uuid, created.accessToken)).json()) as {
      offers: Array<{ impressionTrackingPixelUrls: string[]; url: string; productType: string }>
    }
    expect(final.offers.length).toBeGreaterThan(0)
    // The reference rules offer two products for a fair score: each winner counted under its own type.
    const types = final.offers.map((o) => String(o.productType))
    for (const type of new Set(types)) {
      expect(await sample(registry, 'second_look_auction_winners_total', { product_type: type }), type).toBe(
        types.filter((t) => t === type).length,
      )
    }

    const [first] = final.offers
    if (!first) throw new Error('no offer')
    const pixel = new URL(String(first.impressionTrackingPixelUrls[0])).pathname
    await h.app.request(pixel)
    await h.app.request(pixel)
    await h.app.request('/api/impressions/not-a-token')
    expect(await sample(registry, 'second_look_impressions_total', { result: 'recorded' })).toBe(1)
    expect(await sample(registry, 'second_look_impressions_total', { result: 'repeat' })).toBe(1)
    expect(await sample(registry, 'second_look_impressions_total', { result: 'rejected' })).toBe(1)
    expect((await h.app.request(new URL(first.url).pathname)).status).toBe(302)
    expect(await sample(registry, 'second_look_clicks_total', { result: 'recorded' })).toBe(1)

    // The ledger's calls were timed by operation, and none failed.
    for (const operation of [
      'createLead',
      'recordReply',
      'closeTier',
      'findOffer',
      'recordImpression',
      'recordClick',
    ]) {
      expect(
        await sample(registry, 'ledger_call_duration_seconds_count', { operation }),
        operation,
      ).toBeGreaterThan(0)
    }
    expect(
      (await registry.getSingleMetricAsString('ledger_call_failures_total'))
        .split('\n')
        .filter((l) => l && !l.startsWith('#')),
    ).toEqual([])
  })

  it('puts no lead id, uuid or URL in any label', async () => {
    const text = await registry.metrics()
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i)
    expect(text).not.toMatch(/https?:\/\//)
    expect(text).not.toContain('987-65-4329')
  })
})
