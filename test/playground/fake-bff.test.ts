/**
 * @module The fake BFF's second-look front door, as the loan application meets it: the consent texts it
 * serves, the lead's checks in the real BFF's words (fields, the consent extension, texts word for word), and
 * the scripted answers the stories use (a refused field, a duplicate applicant, a slow create, a repeat
 * applicant's first search).
 */
import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BFF_ROUTES, bffErrorSchema, createdSearchSchema, WIDGET_HEADER } from '../../src/contract/bff.ts'
import { consentTextsSchema } from '../../src/contract/consent.ts'
import type { LeadInput } from '../../src/contract/partner.ts'
import { SAMPLE_FCRA_TEXT, SAMPLE_TCPA_TEXT } from '../../src/partner-kit/sample-leads.ts'
import { createFakeBff, type FakeBff } from '../../src/playground/scenarios/fake-bff.ts'
import { DUPLICATE_HEADER } from '../../src/playground/scenarios/fake-searches.ts'
import { makePartner, SAMPLE_LEAD } from '../../src/playground/scenarios/fixtures.ts'
import { scenarios } from '../../src/playground/scenarios/handlers.ts'
import { REFUSED_ZIP } from '../../src/playground/scenarios/second-look-scenarios.ts'
import { failOnUnhandledRequest } from '../support/test-leftovers.ts'

const BFF = 'http://bff.test'
const HEADERS = { [WIDGET_HEADER]: '1', 'content-type': 'application/json' }

let server: ReturnType<typeof setupServer> | undefined
afterEach(() => {
  server?.close()
  server = undefined
  vi.useRealTimers()
})

function start(bff: FakeBff): FakeBff {
  server = setupServer(...bff.handlers)
  server.listen({ onUnhandledRequest: failOnUnhandledRequest })
  return bff
}

const send = (lead: unknown) =>
  fetch(`${BFF}${BFF_ROUTES.secondLook}`, { method: 'POST', headers: HEADERS, body: JSON.stringify(lead) })

/** The BFF's error body, checked by the widget's own schema. */
async function refusal(response: Response) {
  return { status: response.status, ...bffErrorSchema.parse(await response.json()) }
}

const withLegal = (legal: Partial<LeadInput['legalInformation']>): LeadInput => ({
  ...SAMPLE_LEAD,
  legalInformation: { ...SAMPLE_LEAD.legalInformation, ...legal },
})

describe('the fake BFF, second look', () => {
  it('serves the sandbox consent texts (the partner kit samples) to widget requests', async () => {
    const bff = start(scenarios.secondLookLoans.create())
    const response = await fetch(`${BFF}${BFF_ROUTES.consentTexts}`, { headers: HEADERS })
    expect(response.status).toBe(200)
    const texts = consentTextsSchema.parse(await response.json())
    expect(texts).toMatchObject({
      version: 'sandbox',
      fcra: { text: SAMPLE_FCRA_TEXT },
      tcpa: { text: SAMPLE_TCPA_TEXT },
    })
    expect(bff.log.consentTexts).toBe(1)
    const bare = await fetch(`${BFF}${BFF_ROUTES.consentTexts}`)
    expect(await refusal(bare)).toMatchObject({ status: 400, code: 'bad_request' })
  })

  it('takes a lead with exactly the served texts and a consent extension', async () => {
    start(scenarios.secondLookLoans.create())
    const response = await send({ ...SAMPLE_LEAD, consent: { pageUrl: 'https://publisher.example/loans' } })
    expect(response.status).toBe(201)
    expect(createdSearchSchema.safeParse(await response.json()).success).toBe(true)
  })

  it('refuses texts that are not the served ones, naming each field as the real BFF does', async () => {
    start(scenarios.secondLookLoans.create())
    const edited = await refusal(await send(withLegal({ fcraLanguage: `${SAMPLE_FCRA_TEXT} Edited.` })))
    expect(edited).toMatchObject({ status: 400, code: 'validation_failed' })
    expect(edited.errors).toEqual([
      {
        field: 'legalInformation.fcraLanguage',
        reason: expect.stringContaining("not the operator's FCRA text"),
      },
    ])
    const tcpa = await refusal(await send(withLegal({ tcpaLanguage: 'Call me, maybe.' })))
    expect(tcpa.errors?.map((e) => e.field)).toEqual(['legalInformation.tcpaLanguage'])
  })

  it('checks the consent extension by its own schema, its fields named under consent', async () => {
    start(scenarios.secondLookLoans.create())
    const bad = await refusal(
      await send({ ...SAMPLE_LEAD, consent: { pageUrl: 'ftp://publisher.example/' } }),
    )
    expect(bad).toMatchObject({ status: 400, code: 'validation_failed' })
    expect(bad.errors?.map((e) => e.field)).toEqual(['consent.pageUrl'])
  })

  it('loanFieldRefused: refuses ZIP 00000 naming personalInformation.zipcode, and takes any other', async () => {
    start(scenarios.loanFieldRefused.create())
    const zip = (zipcode: string) => ({
      ...SAMPLE_LEAD,
      personalInformation: { ...SAMPLE_LEAD.personalInformation, zipcode },
    })
    const refused = await refusal(await send(zip(REFUSED_ZIP)))
    expect(refused).toMatchObject({ status: 400, code: 'validation_failed' })
    expect(refused.errors?.map((e) => e.field)).toEqual(['personalInformation.zipcode'])
    expect((await send(zip('94107'))).status).toBe(201)
  })

  it('loanDuplicateApplicant: 409 duplicate_applicant for a valid lead, after the lead checks', async () => {
    start(scenarios.loanDuplicateApplicant.create())
    expect(await refusal(await send(SAMPLE_LEAD))).toMatchObject({ status: 409, code: 'duplicate_applicant' })
    // An invalid lead is refused for what is wrong with it first, as the real BFF does.
    const invalid = await refusal(await send(withLegal({ fcraLanguage: 'Another text.' })))
    expect(invalid.status).toBe(400)
  })

  it('a repeat applicant whose offers last gets the first search: 201, the header, secondLook.duplicate', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-22T12:00:00Z') })
    const firstAppliedAt = '2026-11-20T09:30:00.000Z'
    const bff = start(
      createFakeBff({
        secondLook: { windowMs: 12_000 },
        partners: [{ partner: makePartner({ name: 'Sim Lender' }), answersAfterMs: 500, offers: [] }],
        repeatApplicant: { firstAppliedAt, offersExpired: false },
      }),
    )
    const first = await send(SAMPLE_LEAD)
    const again = await send(SAMPLE_LEAD)
    expect(first.status).toBe(201)
    expect(first.headers.get(DUPLICATE_HEADER)).toBe('true')
    const a = createdSearchSchema.parse(await first.json())
    const b = createdSearchSchema.parse(await again.json())
    expect(b.rateTable.uuid).toBe(a.rateTable.uuid)
    expect(a.rateTable.createdAt).toBe(firstAppliedAt)
    // Long settled: nobody is asked again.
    expect(a.rateTable.pendingResponses).toEqual([])
    expect(a.rateTable.secondLook).toMatchObject({ duplicate: { firstAppliedAt } })
    // The mark is the create's answer only; polls read the search as it is.
    const poll = await fetch(`${BFF}${BFF_ROUTES.secondLook}/${a.rateTable.uuid}`, {
      headers: { ...HEADERS, 'X-Offer-Access-Token': a.accessToken },
    })
    expect(((await poll.json()) as { secondLook: object }).secondLook).not.toHaveProperty('duplicate')
    expect(bff.log.creates).toHaveLength(2)
  })

  it('loanSlowCreate: the create answers only after its delay', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    start(scenarios.loanSlowCreate.create())
    let answered = false
    const response = send(SAMPLE_LEAD).then((r) => {
      answered = true
      return r
    })
    await vi.advanceTimersByTimeAsync(7_900)
    expect(answered).toBe(false)
    await vi.advanceTimersByTimeAsync(200)
    expect((await response).status).toBe(201)
  })
})
