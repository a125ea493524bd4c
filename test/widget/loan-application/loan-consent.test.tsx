/**
 * @module The application's last step and what it sends: the operator's texts in full beside unchecked
 * boxes, FCRA required (nothing sent without it, and why), TCPA optional, the lead the BFF takes with
 * exactly the texts served and the page without its query; the BFF's field errors back on their fields;
 * the texts failing (a retry, nothing sent), loading, and abandoned on unmount.
 */
import { screen, waitFor, within } from '@testing-library/react'
import { delay, HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { DEFAULT_LOAN_LABELS } from '../../../src/widget/loan-application/loan-labels.ts'
import { CONSENT_TEXTS, LEAD } from './loan-fixtures.ts'
import { CONSENT_URL, consentRoute, server, setupLoanTests } from './loan-test-server.ts'
import { bffAccepts, descriptionOf, renderApplication } from './render-application.tsx'

setupLoanTests()

// A full application: every answer but the consent, which only the visitor gives.
const { legalInformation: _, ...PREFILL } = LEAD
const FCRA = CONSENT_TEXTS.fcra.text
const TCPA = CONSENT_TEXTS.tcpa?.text ?? ''
/** A box by its text: its accessible name is the operator's text, line breaks and all. */
const named = (text: string) => ({ name: text })
const box = (text: string) => screen.getByRole('checkbox', named(text)) as HTMLInputElement
const submitButton = () => screen.getByRole('button', { name: 'See my loan offers' })

const originalUrl = window.location.href
beforeEach(() => window.history.replaceState(null, '', '/loans?email=synthetic%40example.com&utm_source=x'))
afterEach(() => window.history.replaceState(null, '', originalUrl))

describe('consent', () => {
  test('the texts are shown in full beside unchecked boxes, even when the prefill says consent was given', async () => {
    server.use(consentRoute())
    const app = renderApplication({
      prefill: { ...PREFILL, legalInformation: { consentsToFcra: 'true', consentstoTcpa: 'true' } },
    })
    await app.toLastStep()
    expect(screen.getByText('Step 5 of 5')).toBeTruthy()
    const group = screen.getByRole('group', { name: 'Your consent' })
    await within(group).findByRole('checkbox', named(FCRA))
    // Each text whole and exactly as served (its line breaks kept), as the label of its box.
    const labels = [...group.querySelectorAll('label')].map((label) => label.firstChild?.textContent)
    expect(labels).toEqual([FCRA, TCPA])
    expect(box(FCRA).checked).toBe(false)
    // The TCPA box is named by its whole text and marked optional.
    expect(box(`${TCPA} (optional)`).checked).toBe(false)
  })

  test('without FCRA nothing is sent, and the box says why', async () => {
    server.use(consentRoute())
    const app = renderApplication({ prefill: PREFILL })
    await app.toLastStep()
    await screen.findByRole('checkbox', named(FCRA))
    await app.user.click(submitButton())
    expect(app.onSubmit).not.toHaveBeenCalled()
    expect(document.activeElement).toBe(box(FCRA))
    expect(descriptionOf(box(FCRA))).toBe(DEFAULT_LOAN_LABELS.loanFcraRequired)
    expect(screen.getByRole('alert').textContent).toBe('Please correct the highlighted field.')
  })

  test.each([
    ['checked', true, { consentstoTcpa: 'true', tcpaLanguage: TCPA }],
    ['unchecked', false, { consentstoTcpa: 'false' }],
  ])(
    'with FCRA and TCPA %s: the lead the BFF takes, with exactly the texts served',
    async (_, tcpa, legal) => {
      server.use(consentRoute())
      const app = renderApplication({ prefill: PREFILL })
      await app.toLastStep()
      await app.user.click(await screen.findByRole('checkbox', named(FCRA)))
      if (tcpa) await app.user.click(box(`${TCPA} (optional)`))
      await app.user.click(submitButton())
      expect(app.onSubmit).toHaveBeenCalledTimes(1)
      const lead = app.onSubmit.mock.calls[0]?.[0]
      if (!lead) throw new Error('no lead')
      expect(bffAccepts(lead)).toBe(true)
      expect(lead.legalInformation).toEqual({ consentsToFcra: 'true', fcraLanguage: FCRA, ...legal })
      expect(lead.consent).toEqual({ pageUrl: `${window.location.origin}/loans` })
      const { consent: __, ...rest } = lead
      expect(rest).toEqual({ ...PREFILL, legalInformation: lead.legalInformation })
    },
  )

  test("the certificate of the host page's TrustedForm and the publisher's prefilled LeadiD token reach the lead", async () => {
    const cert = `https://cert.trustedform.com/${'c3'.repeat(20)}`
    const token = '0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9'
    const field = Object.assign(document.createElement('input'), {
      type: 'hidden',
      name: 'xxTrustedFormCertUrl',
      value: cert,
    })
    document.body.append(field)
    server.use(consentRoute())
    const app = renderApplication({ prefill: { ...PREFILL, consent: { leadiDToken: token } } })
    await app.toLastStep()
    await app.user.click(await screen.findByRole('checkbox', named(FCRA)))
    await app.user.click(submitButton())
    expect(app.onSubmit.mock.calls[0]?.[0].consent).toEqual({
      pageUrl: `${window.location.origin}/loans`,
      trustedFormCertUrl: cert,
      leadiDToken: token,
    })
    field.remove()
  })

  test('an operator without a TCPA text: one box, and no consentstoTcpa in the lead', async () => {
    const { tcpa: __, ...fcraOnly } = CONSENT_TEXTS
    server.use(consentRoute(fcraOnly))
    const app = renderApplication({ prefill: PREFILL })
    await app.toLastStep()
    await app.user.click(await screen.findByRole('checkbox', named(FCRA)))
    expect(screen.getAllByRole('checkbox')).toHaveLength(1)
    await app.user.click(submitButton())
    expect(app.onSubmit.mock.calls[0]?.[0].legalInformation).toEqual({
      consentsToFcra: 'true',
      fcraLanguage: FCRA,
    })
  })

  test('while sending, the button says so and a second press sends nothing more', async () => {
    server.use(consentRoute())
    const app = renderApplication({ prefill: PREFILL })
    await app.toLastStep()
    await app.user.click(await screen.findByRole('checkbox', named(FCRA)))
    await app.user.click(submitButton())
    app.rerender({ submitting: true })
    const sending = screen.getByRole('button', { name: 'Sending your application…' })
    expect(sending.getAttribute('aria-disabled')).toBe('true')
    await app.user.click(sending)
    expect(app.onSubmit).toHaveBeenCalledTimes(1)
  })
})

describe('the consent texts', () => {
  test('failing: a message with a retry, submit sends nothing; the retry shows them', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    server.use(
      http.get(CONSENT_URL, () => HttpResponse.json({ code: 'internal' }, { status: 500 }), { once: true }),
    )
    const app = renderApplication({ prefill: PREFILL })
    await app.toLastStep()
    const retry = await screen.findByRole('button', { name: 'Try again' })
    expect(screen.getByText(DEFAULT_LOAN_LABELS.loanConsentFailed)).toBeTruthy()
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('consent texts'),
      expect.stringContaining('HTTP 500'),
    )
    await app.user.click(submitButton())
    expect(app.onSubmit).not.toHaveBeenCalled()
    expect(screen.getByRole('alert').textContent).toBe(DEFAULT_LOAN_LABELS.loanConsentFailed)
    expect(document.activeElement).toBe(retry)
    server.use(consentRoute())
    await app.user.click(retry)
    expect(await screen.findByRole('checkbox', named(FCRA))).toBeTruthy()
    warn.mockRestore()
  })

  test('an answer of another shape is a failure too', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    server.use(http.get(CONSENT_URL, () => HttpResponse.json({ fcra: 'yes' })))
    const app = renderApplication({ prefill: PREFILL })
    await app.toLastStep()
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy()
    warn.mockRestore()
  })

  test('loading: a placeholder, and the request is aborted when the application goes away', async () => {
    let signal: AbortSignal | undefined
    server.use(
      http.get(CONSENT_URL, async ({ request }) => {
        signal = request.signal
        await delay('infinite')
      }),
    )
    const app = renderApplication({ prefill: PREFILL })
    await app.toLastStep()
    expect(screen.getByText(DEFAULT_LOAN_LABELS.loanConsentLoading)).toBeTruthy()
    await waitFor(() => expect(signal).toBeDefined())
    app.view.unmount()
    expect(signal?.aborted).toBe(true)
  })
})

test("the BFF's field errors: the first step holding one, the field marked with a visitor sentence and focused", async () => {
  server.use(consentRoute())
  const app = renderApplication({ prefill: PREFILL })
  await app.toLastStep()
  app.rerender({
    serverErrors: [
      {
        field: 'personalInformation.zipcode',
        reason: 'personalInformation.zipcode must be a 5-digit ZIP code (or ZIP+4)',
      },
      { field: 'personalInformation.email', reason: 'personalInformation.email must be an email address' },
    ],
  })
  await waitFor(() => expect(screen.getByText('Step 2 of 5')).toBeTruthy())
  const email = screen.getByLabelText('Email')
  expect(document.activeElement).toBe(email)
  expect(descriptionOf(email)).toBe(DEFAULT_LOAN_LABELS.loanEmailInvalid)
  expect(screen.getByRole('alert').textContent).toBe('Please correct the highlighted field.')
  await app.next()
  expect(descriptionOf(screen.getByLabelText('ZIP code'))).toBe(DEFAULT_LOAN_LABELS.loanZipcodeInvalid)
})

test('a consent text the operator changed since it was shown: the new text, its box unchecked, and why', async () => {
  const changed = {
    ...CONSENT_TEXTS,
    fcra: { id: 'fcra-2', text: 'By checking this box I authorize the new terms.' },
  }
  let requests = 0
  server.use(http.get(CONSENT_URL, () => HttpResponse.json(requests++ === 0 ? CONSENT_TEXTS : changed)))
  const app = renderApplication({ prefill: PREFILL })
  await app.toLastStep()
  await app.user.click(await screen.findByRole('checkbox', named(FCRA)))
  await app.user.click(submitButton())
  app.rerender({
    serverErrors: [{ field: 'legalInformation.fcraLanguage', reason: 'not a text this server serves' }],
  })
  const fresh = await screen.findByRole('checkbox', named(changed.fcra.text))
  expect(requests).toBe(2)
  expect((fresh as HTMLInputElement).checked).toBe(false)
  expect(descriptionOf(fresh)).toBe(DEFAULT_LOAN_LABELS.loanConsentChanged)
  await app.user.click(fresh)
  await app.user.click(submitButton())
  expect(app.onSubmit.mock.calls[1]?.[0].legalInformation.fcraLanguage).toBe(changed.fcra.text)
})
