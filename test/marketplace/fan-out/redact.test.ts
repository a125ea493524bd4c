/**
 * @module Redaction of partner reasons and lead ids: the lead's identifying values masked in every spelling.
 */
import { describe, expect, it } from 'vitest'
import type { Lead } from '../../../src/contract/partner.ts'
import { identifyingValues, redactLeadId, redactReason } from '../../../src/marketplace/fan-out/redact.ts'
import { makeLead } from '../support/harness.ts'

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

  it('masks the SSN, phone and date of birth in other spellings, also glued inside a longer number', () => {
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
    // A digit glued before or after is a way of hiding the SSN, not another number (issue 30).
    expect(redactReason('ref 82190999991', values)).toBe('ref 8[redacted]1')
    expect(redactLeadId('lead-219 09 9999', values)).toBe('lead-[redacted]')
    expect(redactLeadId('L-1979/11/23-7', values)).toBe('L-[redacted]-7')
  })
})
