/**
 * The sealed lead: what the ledger keeps while a lead is pending holds none of its PII in the clear, opens
 * only under the same secret and only untampered.
 */
import { describe, expect, it } from 'vitest'
import { leadSchema } from '../../../src/contract/partner.ts'
import { createLeadSealer } from '../../../src/marketplace/takeover/sealed-lead.ts'
import { testSecret } from '../../support/test-secret.ts'
import { KNOWN_EMAIL, KNOWN_SSN, makeKnownLead } from '../support/harness.ts'

const SECRET = testSecret('a', 32)
const lead = leadSchema.parse({
  ...makeKnownLead(),
  sessionInformation: { ipAddress: '203.0.113.7', userAgent: 'UA' },
})

describe('sealed lead', () => {
  it('opens to the same lead, and carries no identifying value in any spelling the text can show', () => {
    const sealer = createLeadSealer(SECRET)
    const sealed = sealer.seal(lead)
    expect(sealer.open(sealed)).toEqual(lead)
    for (const value of [KNOWN_SSN, KNOWN_SSN.replaceAll('-', ''), KNOWN_EMAIL, 'Probeworth', '1983']) {
      expect(sealed).not.toContain(value)
      expect(Buffer.from(sealed.slice(3), 'base64url').toString('latin1')).not.toContain(value)
    }
    // A fresh IV each time: two seals of one lead differ.
    expect(sealer.seal(lead)).not.toBe(sealed)
  })

  it('does not open under another secret, tampered, truncated or of another version', () => {
    const sealed = createLeadSealer(SECRET).seal(lead)
    expect(createLeadSealer(testSecret('b', 32)).open(sealed)).toBeUndefined()
    // One character of the body changed for another: the one it is, never itself (it was compared with the
    // last character, so 1 seal in 64 came back unchanged and opened).
    const at = sealed.length - 2
    const flipped = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`
    expect(flipped).not.toBe(sealed)
    const sealer = createLeadSealer(SECRET)
    expect(sealer.open(flipped)).toBeUndefined()
    expect(sealer.open(sealed.slice(0, 20))).toBeUndefined()
    expect(sealer.open(sealed.replace(/^v1/, 'v9'))).toBeUndefined()
  })

  it('refuses a short secret, naming the fix', () => {
    expect(() => createLeadSealer('short')).toThrow(/at least 32 characters; use openssl rand -hex 32/)
  })
})
