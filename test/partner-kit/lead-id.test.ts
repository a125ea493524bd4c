/**
 * @module Deterministic, PII-free `lead_id`.
 */
import { describe, expect, it } from 'vitest'
import { deriveLeadId } from '../../src/partner-kit/lead-id.ts'
import { sampleLeads } from '../../src/partner-kit/sample-leads.ts'

const SECRET = 'a-test-secret-of-some-length'
const [first, second] = sampleLeads()

describe('deriveLeadId', () => {
  it('gives the same lead the same id, and ignores session information (a resend from another IP)', () => {
    const lead = structuredClone(first?.lead)
    const resent = structuredClone(first?.lead)
    if (!lead || !resent) throw new Error('no sample')
    resent.sessionInformation.ipAddress = '198.51.100.7'
    expect(deriveLeadId(lead, SECRET)).toBe(deriveLeadId(resent, SECRET))
  })

  it('differs between leads and between partners (per-partner secret)', () => {
    expect(deriveLeadId(first?.lead, SECRET)).not.toBe(deriveLeadId(second?.lead, SECRET))
    expect(deriveLeadId(first?.lead, SECRET)).not.toBe(deriveLeadId(first?.lead, 'another-secret-entirely'))
  })

  it('carries no PII: no SSN digits, email or phone', () => {
    const lead = first?.lead
    if (!lead) throw new Error('no sample')
    const id = deriveLeadId(lead, SECRET)
    expect(id).toMatch(/^ref_[\w-]{22}$/)
    expect(id).not.toContain(lead.personalInformation.ssn.replace(/\D/g, '').slice(0, 5))
    expect(id).not.toContain('example.com')
  })

  it('identifies a body that is not JSON by its text', () => {
    expect(deriveLeadId('not json', SECRET)).toBe(deriveLeadId('not json', SECRET))
    expect(deriveLeadId('not json', SECRET)).not.toBe(deriveLeadId('other', SECRET))
  })
})
