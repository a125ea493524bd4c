import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { Lead } from '../../src/contract/partner.ts'
import { createClickSigner } from '../../src/marketplace/clicks/click-token.ts'
import { identifyingValues, redactLeadId, redactReason } from '../../src/marketplace/fan-out/redact.ts'
import { canonicalJson, createBodyHasher } from '../../src/marketplace/intake/idempotency.ts'
import type { MarketplaceContext } from '../../src/marketplace/marketplace-context.ts'
import type { PartnerRegistryEntry } from '../../src/marketplace/registry/partner-registry.ts'
import { csvCell } from '../../src/marketplace/reports/report-csv.ts'
import { parseReportRange } from '../../src/marketplace/reports/report-range.ts'
import { createPartnerAuth } from '../../src/marketplace/routes/partner-auth.ts'
import { makeLead } from './harness.ts'

const OFFER = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed'

describe('click tokens', () => {
  it('round-trip the offer id until they expire', () => {
    let now = 1_000_000
    const signer = createClickSigner('a-secret-of-sixteen+', { ttlMs: 60_000, now: () => now })
    const token = signer.sign(OFFER)
    expect(signer.verify(token)).toBe(OFFER)
    now += 61_000
    expect(signer.verify(token)).toBeUndefined()
  })

  it('reject another key, another offer id, and a changed expiry', () => {
    const signer = createClickSigner('a-secret-of-sixteen+')
    const token = signer.sign(OFFER)
    expect(createClickSigner('another-secret-1234').verify(token)).toBeUndefined()
    const [id, expiry, mac] = token.split('.') as [string, string, string]
    expect(signer.verify(`${id.replace('1b9d', '1b9e')}.${expiry}.${mac}`)).toBeUndefined()
    expect(signer.verify(`${id}.${expiry}0.${mac}`)).toBeUndefined()
    expect(signer.verify('')).toBeUndefined()
  })
})

describe('idempotency body hash', () => {
  it('is the same for the same body in another key order, different for another body, and keyed', () => {
    const hash = createBodyHasher('secret-one-123456')
    expect(hash({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(hash({ b: [1, { d: 3, c: 2 }], a: 1 }))
    expect(hash({ a: 1 })).not.toBe(hash({ a: 2 }))
    expect(createBodyHasher('secret-two-123456')({ a: 1 })).not.toBe(hash({ a: 1 }))
    expect(canonicalJson({ b: 1, a: undefined, c: null })).toBe('{"b":1,"c":null}')
  })
})

describe('reason redaction', () => {
  it('masks every identifying value of the lead in any case, and caps the length', () => {
    const values = identifyingValues(makeLead() as unknown as Lead)
    expect(redactReason('ssn 987654329 and PII.PROBE.LEAD@example.com, Quentina', values)).toBe(
      'ssn [redacted] and [redacted], [redacted]',
    )
    expect(redactReason('x'.repeat(900), values)?.length).toBe(500)
    expect(redactReason('line\nbreak\u0000', values)).toBe('line break ')
  })

  it('masks whole tokens only: a lead named Doe leaves "does not meet criteria" intact', () => {
    const lead = makeLead() as unknown as Lead
    lead.personalInformation.lastName = 'Doe'
    const values = identifyingValues(lead)
    expect(redactReason('Doe does not meet criteria; doe-eyed DOE', values)).toBe(
      '[redacted] does not meet criteria; [redacted]-eyed [redacted]',
    )
    expect(redactReason("Doesn't qualify (Probeworthy)", values)).toBe("Doesn't qualify (Probeworthy)")
  })

  it('masks the SSN, phone and date of birth in other spellings, never a longer number holding them', () => {
    const lead = makeLead() as unknown as Lead
    Object.assign(lead.personalInformation, {
      ssn: '219-09-9999',
      primaryPhone: '202-555-0147',
      dateOfBirth: '1979-11-23',
    })
    const values = identifyingValues(lead)
    for (const spelling of [
      '219 09 9999',
      '219099999',
      '219.09.9999',
      '(202) 555-0147',
      '+1 202 555 0147',
      '2025550147',
      '1979/11/23',
      '19791123',
      '11/23/1979',
      '23.11.1979',
      '11-23-79',
    ]) {
      expect(redactReason(`x ${spelling} y`, values), spelling).toBe('x [redacted] y')
    }
    expect(redactReason('ref 82190999991', values)).toBe('ref 82190999991')
    expect(redactLeadId('lead-219 09 9999', values)).toBe('lead-[redacted]')
    expect(redactLeadId('L-1979/11/23-7', values)).toBe('L-[redacted]-7')
  })
})

describe('report range', () => {
  const now = Date.parse('2026-03-15T12:00:00Z')
  it('defaults to the last 30 days', () => {
    expect(parseReportRange(undefined, undefined, now)).toEqual({
      ok: true,
      from: new Date('2026-02-13T12:00:00Z'),
      to: new Date('2026-03-15T12:00:00Z'),
    })
  })
  it('takes whole days, `to` inclusive, or timestamps; refuses a reversed or year-long-plus range', () => {
    expect(parseReportRange('2026-03-01', '2026-03-01', now)).toMatchObject({
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-03-02T00:00:00Z'),
    })
    expect(parseReportRange('2026-03-01T06:00:00Z', undefined, now)).toMatchObject({ ok: true })
    expect(parseReportRange('2026-02-30', undefined, now).ok).toBe(false)
    expect(parseReportRange('2026-03-02', '2026-03-01', now).ok).toBe(false)
    expect(parseReportRange('2020-01-01', '2026-01-01', now).ok).toBe(false)
  })
  it('says what is wrong with the range and what to send instead', () => {
    const reason = (from?: string, to?: string) => {
      const r = parseReportRange(from, to, now)
      return r.ok ? '' : r.errors.map((e) => `${e.field}: ${e.reason}`).join(' | ')
    }
    expect(reason('2026-02-30')).toMatch(
      /^from: from="2026-02-30" is not a day of the calendar: send a real date/,
    )
    expect(reason(undefined, 'last week')).toMatch(/^to: to="last week" is neither a date \(YYYY-MM-DD/)
    expect(reason('2026-03-01T99:00:00Z')).toMatch(/is not a valid ISO 8601 timestamp/)
    expect(reason('2026-03-02', '2026-03-01')).toMatch(
      /from must be before to, and from=2026-03-02 and to=2026-03-01 is not: send an earlier from or a later to/,
    )
    expect(reason('2020-01-01', '2026-01-01')).toMatch(
      /at most 366 days and from=2020-01-01 to=2026-01-01 spans 2193/,
    )
  })
})

describe('CSV cells', () => {
  it('quote separators and neutralize formulas in partner text', () => {
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvCell(-3)).toBe('-3')
  })
})

describe('reports bearer', () => {
  it('matches only the exact token, and tells the operator from each partner', () => {
    const partner = { id: 'acme', reportsToken: 'acme-token-0123456789' } as PartnerRegistryEntry
    const auth = createPartnerAuth({
      reportsToken: 'tok-123',
      registry: new Map([['acme', partner]]),
    } as unknown as MarketplaceContext)
    const ask = (authorization?: string) => {
      const c = new Hono()
      c.get('/', (ctx) => {
        const who = auth.authenticate(ctx)
        return who instanceof Response ? who : ctx.json(who.kind === 'operator' ? 'operator' : who.partner.id)
      })
      return c.request('/', { headers: authorization === undefined ? {} : { Authorization: authorization } })
    }
    const who = async (authorization?: string) => {
      const res = await ask(authorization)
      return res.status === 200 ? await res.json() : res.status
    }
    return Promise.all([
      expect(who('Bearer tok-123')).resolves.toBe('operator'),
      expect(who('bearer tok-123')).resolves.toBe('operator'),
      expect(who('Bearer acme-token-0123456789')).resolves.toBe('acme'),
      expect(who('Bearer tok-1234')).resolves.toBe(401),
      expect(who('tok-123')).resolves.toBe(401),
      expect(who(undefined)).resolves.toBe(401),
    ])
  })

  it('refuses at start a partner token equal to REPORTS_TOKEN', () => {
    const partner = { id: 'acme', reportsToken: 'same-token-0123456789' } as PartnerRegistryEntry
    expect(() =>
      createPartnerAuth({
        reportsToken: 'same-token-0123456789',
        registry: new Map([['acme', partner]]),
      } as unknown as MarketplaceContext),
    ).toThrow(/acme's reportsTokenEnv holds REPORTS_TOKEN/)
  })
})
