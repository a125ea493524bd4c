/**
 * @module The lead's PII in a partner URL, in the spellings and encodings the finder covers, and what it
 * must not flag.
 */
import { describe, expect, it } from 'vitest'
import type { Lead } from '../../../src/contract/partner.ts'
import { createPiiFinder } from '../../../src/marketplace/fan-out/pii-in-url.ts'

const LEAD = {
  personalInformation: {
    ssn: '987-65-4329',
    primaryPhone: '(202) 555-0147',
    email: 'Pat.Probe+loans@Example.com',
    dateOfBirth: '1983-07-19',
  },
} as unknown as Lead
const find = createPiiFinder(LEAD)
const b64 = (text: string) => Buffer.from(text).toString('base64')
const b64url = (text: string) => Buffer.from(text).toString('base64url')

describe('createPiiFinder', () => {
  it.each([
    ['https://p.example/c?ssn=987-65-4329', 'SSN'],
    ['https://p.example/c?ssn=987654329', 'SSN'],
    ['https://p.example/c?ssn=987.65.4329', 'SSN'],
    ['https://p.example/c?ssn=987%2065%204329', 'SSN'],
    ['https://p.example/c?ssn=987+65+4329', 'SSN'],
    ['https://p.example/c?ssn=987%252D65%252D4329', 'SSN'],
    [`https://p.example/c/${b64('ssn=987654329')}`, 'SSN'],
    [`https://p.example/c?d=${b64url('{"ssn":"987-65-4329"}')}`, 'SSN'],
    [`https://p.example/c?d=${encodeURIComponent(b64('id 987654329 x'))}`, 'SSN'],
    ['https://p.example/c?tel=%2B1%20202%20555%200147', 'phone number'],
    ['https://p.example/c?tel=2025550147', 'phone number'],
    ['https://p.example/c?tel=202.555.0147', 'phone number'],
    ['https://p.example/c?e=pat.probe%2Bloans%40example.com', 'email address'],
    ['https://p.example/c?e=PAT.PROBE+loans@example.COM', 'email address'],
    [`https://p.example/c?e=${b64url('pat.probe+loans@example.com')}`, 'email address'],
    ['https://p.example/c?dob=1983-07-19', 'date of birth'],
    ['https://p.example/c?dob=07%2F19%2F1983', 'date of birth'],
    ['https://p.example/c?dob=19.07.83', 'date of birth'],
    ['https://p.example/c?dob=19830719', 'date of birth'],
  ])('%s: %s', (url, kind) => {
    expect(find(url)).toBe(kind)
  })

  it.each([
    'https://p.example/landing/installment_loan',
    'https://p.example/c/ref_3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c/debt_relief',
    // The SSN's digits inside a longer number are not the SSN.
    'https://p.example/c?order=19876543290',
    'https://p.example/logo.svg?v=2026-11-25',
    `https://p.example/c?token=${b64url('a random token with no pii at all')}`,
  ])('does not flag %s', (url) => {
    expect(find(url)).toBeUndefined()
  })
})
