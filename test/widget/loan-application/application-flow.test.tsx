/**
 * @module The gate and the flow around the loan application (ApplicationGate.tsx, ApplicationFlow.tsx), as
 * `<OfferWidget>` from the package renders them: which requests show the application, what is sent once
 * it is submitted, what brings it back (a 400 naming a field, a 409 for an applicant seen before), and a
 * chunk that did not load.
 */
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import type { LeadInput } from '../../../src/contract/partner.ts'
import { OfferWidget } from '../../../src/widget/checked-widget.tsx'
import { LABELS_ES_US } from '../../../src/widget/labels-es-us.ts'
import { CONSENT_TEXTS, LEAD } from './loan-fixtures.ts'
import { consentRoute, ENDPOINT, server, setupLoanTests } from './loan-test-server.ts'

const loader = vi.hoisted(() => ({ fail: false, calls: 0 }))
vi.mock('../../../src/widget/load-application.ts', async (original) => {
  const real = await original<typeof import('../../../src/widget/load-application.ts')>()
  return {
    loadApplication: () => {
      loader.calls++
      return loader.fail ? Promise.reject(new Error('chunk did not load')) : real.loadApplication()
    },
  }
})

setupLoanTests()
beforeEach(() => {
  loader.fail = false
  loader.calls = 0
})

const LEAD_URL = `${ENDPOINT}/api/second-look`
const { legalInformation: _consent, ...PREFILL } = LEAD

/** The BFF's lead route: records each body, answers `answer` (a 201 with an empty, complete table by default). */
function leadRoute(answer?: () => Response) {
  const bodies: LeadInput[] = []
  server.use(
    http.post(LEAD_URL, async ({ request }) => {
      bodies.push((await request.json()) as LeadInput)
      return (
        answer?.() ??
        HttpResponse.json(
          {
            accessToken: 'token',
            rateTable: {
              uuid: '11111111-1111-4111-8111-111111111111',
              leadUuid: '22222222-2222-4222-8222-222222222222',
              offers: [],
              pendingResponses: [],
              createdAt: new Date().toISOString(),
            },
          },
          { status: 201 },
        )
      )
    }),
  )
  return bodies
}

/** Continue through the prefilled steps, tick the FCRA box, submit. */
async function apply(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByText('Step 1 of 5')
  for (let i = 0; i < 4; i++) await user.click(screen.getByRole('button', { name: 'Continue' }))
  await user.click(await screen.findByRole('checkbox', { name: /authorize Example Co/ }))
  await user.click(screen.getByRole('button', { name: 'See my loan offers' }))
}

describe('the gate', () => {
  test('an offer search never loads the application', async () => {
    server.use(http.get(`${ENDPOINT}/api/issuers`, () => HttpResponse.json([])))
    render(<OfferWidget endpoint={ENDPOINT} search={{}} />)
    expect(await screen.findByRole('heading', { name: 'Compare auto insurance rates' })).toBeTruthy()
    expect(document.querySelector('.ow-loan')).toBeNull()
    expect(loader.calls).toBe(0)
  })

  test('a second look with a complete lead sends it as given, without the application', async () => {
    const bodies = leadRoute()
    render(<OfferWidget endpoint={ENDPOINT} source="second-look" lead={LEAD} />)
    await waitFor(() => expect(bodies).toHaveLength(1))
    expect(bodies[0]).toEqual(LEAD)
    expect(screen.queryByText('Find your loan offers')).toBeNull()
    expect(loader.calls).toBe(0)
  })

  test('a second look with a partial lead shows the application, prefilled, and sends nothing yet', async () => {
    server.use(consentRoute())
    const bodies = leadRoute()
    render(<OfferWidget endpoint={ENDPOINT} source="second-look" lead={PREFILL as LeadInput} />)
    expect(await screen.findByRole('heading', { name: 'Find your loan offers' })).toBeTruthy()
    expect((screen.getByLabelText('What is the loan for?') as HTMLSelectElement).value).toBe(
      'debt_consolidation',
    )
    expect(bodies).toEqual([])
  })

  test('a chunk that did not load says so, and Try again loads it', async () => {
    server.use(consentRoute())
    loader.fail = true
    const user = userEvent.setup()
    render(<OfferWidget endpoint={ENDPOINT} source="second-look" />)
    expect((await screen.findByRole('alert')).textContent).toContain('We could not load offers')
    loader.fail = false
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('heading', { name: 'Find your loan offers' })).toBeTruthy()
  })
})

describe('language', () => {
  test('the es-US pack sets lang="es" on the widget and on its application, which speak Spanish', async () => {
    server.use(
      consentRoute(),
      http.get(`${ENDPOINT}/api/issuers`, () => HttpResponse.json([])),
    )
    const view = render(<OfferWidget endpoint={ENDPOINT} search={{}} labels={LABELS_ES_US} />)
    await screen.findByRole('heading', { name: LABELS_ES_US.formHeading })
    expect(view.container.querySelector('.ow-root')?.getAttribute('lang')).toBe('es')
    view.unmount()
    render(<OfferWidget endpoint={ENDPOINT} source="second-look" labels={LABELS_ES_US} />)
    await screen.findByRole('heading', { name: LABELS_ES_US.loanHeading })
    expect(document.querySelector('.ow-root')?.getAttribute('lang')).toBe('es')
  })

  test('without a pack the widget says it is in English', async () => {
    server.use(consentRoute())
    render(<OfferWidget endpoint={ENDPOINT} source="second-look" />)
    await screen.findByRole('heading', { name: 'Find your loan offers' })
    expect(document.querySelector('.ow-root')?.getAttribute('lang')).toBe('en')
  })
})

describe('the flow', () => {
  test('the submitted lead carries the texts shown, and the offers follow under a loan heading', async () => {
    server.use(consentRoute())
    const bodies = leadRoute()
    const user = userEvent.setup()
    render(<OfferWidget endpoint={ENDPOINT} source="second-look" lead={PREFILL as LeadInput} />)
    await apply(user)
    await waitFor(() => expect(bodies).toHaveLength(1))
    expect(bodies[0]?.legalInformation).toEqual({
      consentsToFcra: 'true',
      fcraLanguage: CONSENT_TEXTS.fcra.text,
      consentstoTcpa: 'false',
    })
    expect(bodies[0]?.personalInformation).toEqual(PREFILL.personalInformation)
    expect(await screen.findByRole('heading', { name: 'Your loan offers' })).toBeTruthy()
    // The visitor lands on the results' heading.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Your loan offers'))
  })

  test('a 400 naming a field brings the application back on that field, with what was typed', async () => {
    server.use(consentRoute())
    let refuse = true
    const bodies = leadRoute(() =>
      refuse
        ? HttpResponse.json(
            {
              code: 'validation_failed',
              message: 'The lead is invalid; fix the fields listed.',
              errors: [{ field: 'personalInformation.zipcode', reason: 'not in CA' }],
            },
            { status: 400 },
          )
        : (undefined as unknown as Response),
    )
    const user = userEvent.setup()
    render(<OfferWidget endpoint={ENDPOINT} source="second-look" lead={PREFILL as LeadInput} />)
    await apply(user)
    const zip = (await screen.findByLabelText('ZIP code')) as HTMLInputElement
    expect(screen.getByText('Step 3 of 5')).toBeTruthy()
    expect(zip.getAttribute('aria-invalid')).toBe('true')
    expect(zip.value).toBe('94107')
    expect(bodies).toHaveLength(1)
    refuse = false
  })

  test('a 409 for an applicant seen before brings the application back saying so', async () => {
    server.use(consentRoute())
    leadRoute(() =>
      HttpResponse.json(
        { code: 'duplicate_applicant', message: 'This applicant applied within the duplicate window.' },
        { status: 409 },
      ),
    )
    const user = userEvent.setup()
    render(<OfferWidget endpoint={ENDPOINT} source="second-look" lead={PREFILL as LeadInput} />)
    await apply(user)
    expect(await screen.findByText(/You have already applied recently/)).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'Find your loan offers' })).toBeTruthy()
  })
})
