/**
 * @module Requests to a real running server over loopback, for the suites that start one: a plain request
 * whose body is read as text, and a second-look lead (the partner kit's "complete" sample, as an applicant
 * of its own) submitted and checked created.
 */
import { request } from 'undici'
import { expect } from 'vitest'
import { createdSearchSchema } from '../../src/contract/bff.ts'
import type { Lead } from '../../src/contract/partner.ts'
import { sampleLeads } from '../../src/partner-kit/index.ts'
import { distinctDateOfBirth } from './applicants.ts'

/** The status, headers and body text of one request. */
export async function http(url: string, init: Parameters<typeof request>[1] = {}) {
  const res = await request(url, init)
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() }
}

/**
 * Submits the "complete" sample lead, as a distinct applicant (a date of birth of its own), to `serverUrl`
 * with `headers`; it must be created (201).
 */
export async function submitSampleLead(serverUrl: string, headers: Record<string, string>) {
  const sample = sampleLeads().find((s) => s.id === 'complete')?.lead as Lead
  const lead = {
    ...sample,
    personalInformation: { ...sample.personalInformation, dateOfBirth: distinctDateOfBirth() },
  }
  const created = await http(`${serverUrl}/api/second-look`, {
    method: 'POST',
    headers,
    body: JSON.stringify(lead),
  })
  expect(created.status, created.text).toBe(201)
  return createdSearchSchema.parse(JSON.parse(created.text))
}
