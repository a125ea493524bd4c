/**
 * @module The lead's `consent` extension as read at submit: the page without its query, the host page's
 * TrustedForm and Jornaya LeadiD fields (read through a shadow root from the host document), the
 * publisher's prefill first, and only values the schema accepts.
 */
import { afterEach, beforeEach, expect, test } from 'vitest'
import { consentContextSchema } from '../../../src/contract/consent.ts'
import { readConsentContext } from '../../../src/widget/loan-application/consent-context.ts'

const CERT = `https://cert.trustedform.com/${'a1'.repeat(20)}`
const OTHER_CERT = `https://cert.trustedform.com/${'b2'.repeat(20)}`
const TOKEN = '0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9'

const originalUrl = window.location.href
beforeEach(() => window.history.replaceState(null, '', '/loans/apply?email=synthetic%40example.com#step-2'))
afterEach(() => {
  window.history.replaceState(null, '', originalUrl)
  document.body.replaceChildren()
})

/** A node inside a shadow root, as the `<offer-widget>` element and the script tag render the application. */
function nodeInShadowRoot(): Node {
  const host = document.createElement('div')
  document.body.append(host)
  const inner = document.createElement('form')
  host.attachShadow({ mode: 'open' }).append(inner)
  return inner
}

function hiddenInput(attributes: Record<string, string>): void {
  const input = document.createElement('input')
  input.type = 'hidden'
  for (const [name, value] of Object.entries(attributes)) input.setAttribute(name, value)
  document.body.append(input)
}

test('the page URL is its origin and path: the query and fragment can carry PII', () => {
  const context = readConsentContext(nodeInShadowRoot(), undefined)
  expect(context).toEqual({ pageUrl: `${window.location.origin}/loans/apply` })
  expect(consentContextSchema.safeParse(context).success).toBe(true)
})

test("the host page's TrustedForm and Jornaya fields are read through the widget's shadow root", () => {
  hiddenInput({ name: 'xxTrustedFormCertUrl', value: CERT })
  hiddenInput({ id: 'leadid_token', value: TOKEN })
  expect(readConsentContext(nodeInShadowRoot(), undefined)).toMatchObject({
    trustedFormCertUrl: CERT,
    leadiDToken: TOKEN,
  })
})

test('Jornaya under its other field name, universal_leadid', () => {
  hiddenInput({ name: 'universal_leadid', value: TOKEN })
  expect(readConsentContext(nodeInShadowRoot(), undefined)?.leadiDToken).toBe(TOKEN)
})

test("the publisher's prefilled consent wins, key by key", () => {
  hiddenInput({ name: 'xxTrustedFormCertUrl', value: CERT })
  hiddenInput({ id: 'leadid_token', value: TOKEN })
  const context = readConsentContext(nodeInShadowRoot(), {
    trustedFormCertUrl: OTHER_CERT,
    pageUrl: 'https://publisher.example/loans',
  })
  expect(context).toEqual({
    pageUrl: 'https://publisher.example/loans',
    trustedFormCertUrl: OTHER_CERT,
    leadiDToken: TOKEN,
  })
})

test('a value the schema refuses is left out alone; a refused prefill falls back to the page', () => {
  hiddenInput({ name: 'xxTrustedFormCertUrl', value: 'https://evil.example/cert' })
  hiddenInput({ id: 'leadid_token', value: TOKEN })
  const context = readConsentContext(nodeInShadowRoot(), { leadiDToken: 'not-a-token' })
  expect(context).toEqual({ pageUrl: `${window.location.origin}/loans/apply`, leadiDToken: TOKEN })
})

test('a page that is not http(s) has no page URL; nothing valid, no consent object', () => {
  expect(readConsentContext(undefined, undefined)).toBeUndefined()
  expect(readConsentContext(undefined, { pageUrl: 'javascript:alert(1)' })).toBeUndefined()
})
