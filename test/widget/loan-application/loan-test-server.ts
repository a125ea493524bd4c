/**
 * @module The loan application's tests' wiring: an msw server whose unhandled requests fail the test
 * (`test/support/test-leftovers.ts`), the consent route answering the operator's texts only to a request
 * carrying `X-Offer-Widget` as every widget request does, and RTL cleanup. Real timers: nothing here waits on time.
 */
import { cleanup } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { WIDGET_HEADER } from '../../../src/contract/bff.ts'
import type { ConsentTexts } from '../../../src/contract/consent.ts'
import { WIDGET_VERSION } from '../../../src/widget/version.ts'
import { failOnUnhandledRequest } from '../../support/test-leftovers.ts'
import { CONSENT_TEXTS } from './loan-fixtures.ts'

export const ENDPOINT = 'https://bff.offer-widget.test'
export const CONSENT_URL = `${ENDPOINT}/api/second-look/consent`

export const server = setupServer()

export function setupLoanTests(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: failOnUnhandledRequest }))
  afterEach(() => {
    cleanup()
    server.resetHandlers()
  })
  afterAll(() => server.close())
}

/** The BFF's consent route serving `texts`; refuses a request without the widget's header, as the BFF would. */
export function consentRoute(texts: ConsentTexts = CONSENT_TEXTS) {
  return http.get(CONSENT_URL, ({ request }) =>
    request.headers.get(WIDGET_HEADER) === WIDGET_VERSION
      ? HttpResponse.json(texts)
      : HttpResponse.json({ code: 'forbidden', message: `${WIDGET_HEADER} is required` }, { status: 403 }),
  )
}
