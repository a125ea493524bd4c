/**
 * A second-look lead's placement (docs/placements.md): stored on the lead's row, and sent only to a partner
 * whose registry entry says `sendPlacement: true`, as the lead's top-level `placement`. Every other partner's
 * body holds no trace of it. The registry refuses a `sendPlacement` that is not a boolean, naming it.
 */
import { eq } from 'drizzle-orm'
import type { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Ledger } from '../../src/ledger/index.ts'
import { leads } from '../../src/ledger/schema.ts'
import { type Marketplace, parsePartnerRegistry } from '../../src/marketplace/index.ts'
import { type SimulatedPartners, startSimulatedPartners } from '../../src/partner-kit/index.ts'
import { LEDGER_DRIVERS } from '../ledger/support/ledger-drivers.ts'
import { makeLead, testMarketplace } from './support/harness.ts'

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 })

const REPORTS_TOKEN = 'lead-placement-operator-reports-token'

describe.each(LEDGER_DRIVERS)('lead placement on $name', (driver) => {
  let ledger: Ledger
  let partners: SimulatedPartners
  let marketplace: Marketplace
  let app: Hono
  beforeAll(async () => {
    ledger = await driver.open()
    partners = await startSimulatedPartners({
      recordLeads: true,
      partners: [
        { id: 'opted-in', name: 'Opted In', tier: 'first', behavior: 'approve', latencyMs: 1 },
        { id: 'plain', name: 'Plain', tier: 'first', behavior: 'approve', latencyMs: 1 },
      ],
    })
    ;({ marketplace, app } = testMarketplace({
      config: { winnerPolicy: 'phase2', sandboxMode: true, deadlineMs: 2_000, reportsToken: REPORTS_TOKEN },
      ledger,
      registry: partners.entries.map((e) => ({ ...e, sendPlacement: e.id === 'opted-in' })),
    }))
  })
  afterAll(async () => {
    await marketplace?.close()
    await partners?.close()
    await ledger?.close()
  })

  const submit = async (lead: Record<string, unknown>) => {
    const res = await app.request('http://bff.test/api/second-look', {
      method: 'POST',
      body: JSON.stringify(lead),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(201)
    const { rateTable } = (await res.json()) as { rateTable: { uuid: string; leadUuid: string } }
    await marketplace.settled(rateTable.uuid)
    const [row] = await ledger.db.select().from(leads).where(eq(leads.id, rateTable.leadUuid))
    return row
  }

  it('stores the placement, sends it to the opted-in partner only, and nothing of it to the others', async () => {
    const row = await submit({ ...makeLead(), placement: 'home-hero' })
    expect(row?.placement).toBe('home-hero')
    const [optedIn] = partners.leadsReceived('opted-in') as Array<Record<string, unknown>>
    const [plain] = partners.leadsReceived('plain') as Array<Record<string, unknown>>
    expect(optedIn?.placement).toBe('home-hero')
    expect(plain).toBeDefined()
    expect(plain).not.toHaveProperty('placement')
    expect(JSON.stringify(plain)).not.toContain('home-hero')
    // The rest of the lead is the same for both.
    const { placement: _sent, ...rest } = optedIn ?? {}
    expect(rest).toEqual(plain)
  })

  it('a lead without a placement is stored as null and sent with no placement to anyone', async () => {
    const row = await submit(makeLead())
    expect(row?.placement).toBeNull()
    for (const id of ['opted-in', 'plain'])
      expect(partners.leadsReceived(id).at(-1)).not.toHaveProperty('placement')
  })

  it('a partner report breaks leads down by placement only for the partner sent it; the other sees not_shared', async () => {
    const breakdown = async (partnerId: string) => {
      const res = await app.request(`http://bff.test/api/reports/partners/${partnerId}`, {
        headers: { Authorization: `Bearer ${REPORTS_TOKEN}` },
      })
      expect(res.status).toBe(200)
      const report = (await res.json()) as {
        requests: number
        breakdowns: { placement: { value: string; requests: number }[] }
      }
      return { requests: report.requests, rows: report.breakdowns.placement }
    }
    // The two leads above: one from home-hero, one without a placement.
    const opted = await breakdown('opted-in')
    expect(
      opted.rows
        .map(({ value, requests }) => ({ value, requests }))
        .sort((a, b) => a.value.localeCompare(b.value)),
    ).toEqual([
      { value: '(none)', requests: 1 },
      { value: 'home-hero', requests: 1 },
    ])
    const plain = await breakdown('plain')
    expect(plain.rows.map(({ value, requests }) => ({ value, requests }))).toEqual([
      { value: 'not_shared', requests: plain.requests },
    ])
    const csv = await app.request('http://bff.test/api/reports/partners/plain?format=csv&table=breakdowns', {
      headers: { Authorization: `Bearer ${REPORTS_TOKEN}` },
    })
    expect(await csv.text()).not.toContain('home-hero')
  })
})

describe('registry sendPlacement', () => {
  const yaml = (value: string) => `
partners:
  - id: acme-loans
    name: Acme Loans
    tier: first
    endpoint: https://partner.example.com/leads
    sendPlacement: ${value}
`
  const options = { sandboxMode: false, secrets: {} }
  it('is off by default, on when true, and refused naming the field when not a boolean', () => {
    expect(parsePartnerRegistry(yaml('false'), options)[0]?.sendPlacement).toBe(false)
    expect(parsePartnerRegistry(yaml('true'), options)[0]?.sendPlacement).toBe(true)
    expect(() => parsePartnerRegistry(yaml('"yes"'), options)).toThrow(/sendPlacement must be true or false/)
  })
})
