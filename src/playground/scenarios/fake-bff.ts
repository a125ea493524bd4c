/**
 * @module A scripted, in-memory stand-in for the BFF's widget routes, as msw handlers. Partners answer at
 * set times after the search is created (read from `Date.now()`, so fake timers drive it in tests and
 * the real clock in the playground), and failures can be injected per poll.
 */
import { HttpResponse, http, type RequestHandler } from 'msw'
import { ACCESS_TOKEN_HEADER, BFF_ROUTES, WIDGET_HEADER } from '../../contract/bff.ts'
import { toFieldIssues } from '../../contract/common.ts'
import {
  type Offer,
  offerSearchInputSchema,
  type Partner,
  type RateTable,
} from '../../contract/offer-search.ts'
import { leadInputSchema } from '../../contract/partner.ts'
import { fakeUuid, issuers } from './fixtures.ts'

export interface PartnerScript {
  partner: Partner
  /** Milliseconds after creation when it answers; `null`: never. */
  answersAfterMs: number | null
  offers: Offer[]
  /** The product types it is asked for (`offerCatalogProductTypes`); default `AutomobileInsurance`. */
  productTypes?: string[]
}

export interface FakeBffScript {
  partners: PartnerScript[]
  /** Offers already in the create response. */
  initialOffers?: Offer[]
  /** Return a Response to fail the n-th poll (1-based) instead of answering it. */
  pollFailure?: (poll: number, elapsedMs: number) => Response | undefined
  /** Return a Response to fail the POST. */
  createFailure?: (body: unknown) => Response | undefined
  /**
   * A second-look lead: every table carries the `secondLook` extension (lenders asked and answered, and
   * `answerBy` this long after creation), as the marketplace sends it.
   */
  secondLook?: { windowMs: number }
}

interface FakeBffLog {
  creates: { source: string; body: unknown; headers: Headers }[]
  polls: { uuid: string; at: number; headers: Headers }[]
  issuers: number
}

export interface FakeBff {
  handlers: RequestHandler[]
  log: FakeBffLog
  seedSearch: () => { uuid: string; accessToken: string }
}

interface Stored {
  table: { uuid: string; leadUuid: string; createdAt: string }
  token: string
  createdAt: number
  polls: number
}

const error = (status: number, code: string, message: string, extra: object = {}, headers?: HeadersInit) =>
  HttpResponse.json({ code, message, ...extra }, { status, headers })

export function createFakeBff(script: FakeBffScript): FakeBff {
  const searches = new Map<string, Stored>()
  const log: FakeBffLog = { creates: [], polls: [], issuers: 0 }

  const tableAt = (stored: Stored, elapsed: number): RateTable => {
    const answered = script.partners.filter((p) => p.answersAfterMs !== null && p.answersAfterMs <= elapsed)
    return {
      ...stored.table,
      offers: [...(script.initialOffers ?? []), ...answered.flatMap((p) => p.offers)],
      pendingResponses: script.partners
        .filter((p) => !answered.includes(p))
        .map((p) => ({
          partner: p.partner,
          offerCatalogProductTypes: p.productTypes ?? ['AutomobileInsurance'],
        })),
      ...(script.secondLook && {
        secondLook: {
          partnersAsked: script.partners.length,
          partnersAnswered: answered.length,
          answerBy: new Date(stored.createdAt + script.secondLook.windowMs).toISOString(),
        },
      }),
    }
  }

  const store = (): Stored => {
    const uuid = fakeUuid(5)
    const stored: Stored = {
      table: { uuid, leadUuid: fakeUuid(6), createdAt: new Date().toISOString() },
      token: `token-${uuid}`,
      createdAt: Date.now(),
      polls: 0,
    }
    searches.set(uuid, stored)
    return stored
  }

  const create = (source: string) =>
    http.post(`*${source}`, async ({ request }) => {
      const body: unknown = await request.json().catch(() => undefined)
      log.creates.push({ source, body, headers: request.headers })
      if (!request.headers.get(WIDGET_HEADER))
        return error(400, 'bad_request', `Send the ${WIDGET_HEADER} header`)
      const failure = script.createFailure?.(body)
      if (failure) return failure
      // Each route validates what the real BFF does: offer search input, or a docs/partner-interface.md lead.
      const parsed = (source === BFF_ROUTES.secondLook ? leadInputSchema : offerSearchInputSchema).safeParse(
        body,
      )
      if (!parsed.success) {
        return error(400, 'validation_failed', 'Some fields are invalid', {
          errors: toFieldIssues(parsed.error),
        })
      }
      const stored = store()
      return HttpResponse.json({ accessToken: stored.token, rateTable: tableAt(stored, 0) }, { status: 201 })
    })

  const poll = (source: string) =>
    http.get(`*${source}/:uuid`, ({ request, params }) => {
      const uuid = String(params.uuid)
      log.polls.push({ uuid, at: Date.now(), headers: request.headers })
      if (!request.headers.get(WIDGET_HEADER))
        return error(400, 'bad_request', `Send the ${WIDGET_HEADER} header`)
      const stored = searches.get(uuid)
      if (!stored) return error(404, 'not_found', 'No such search')
      if (request.headers.get(ACCESS_TOKEN_HEADER) !== stored.token) {
        return error(403, 'forbidden', `Send the access token in ${ACCESS_TOKEN_HEADER}`)
      }
      stored.polls += 1
      const elapsed = Date.now() - stored.createdAt
      const failure = script.pollFailure?.(stored.polls, elapsed)
      if (failure) return failure
      return HttpResponse.json(tableAt(stored, elapsed))
    })

  const handlers: RequestHandler[] = [
    http.get(`*${BFF_ROUTES.issuers}`, ({ request }) => {
      log.issuers += 1
      if (!request.headers.get(WIDGET_HEADER))
        return error(400, 'bad_request', `Send the ${WIDGET_HEADER} header`)
      return HttpResponse.json(issuers)
    }),
    create(BFF_ROUTES.offerSearches),
    poll(BFF_ROUTES.offerSearches),
    create(BFF_ROUTES.secondLook),
    poll(BFF_ROUTES.secondLook),
  ]
  /** A search "created on the publisher's server", for the widget to attach to. */
  const seedSearch = () => {
    const stored = store()
    return { uuid: stored.table.uuid, accessToken: stored.token }
  }
  return { handlers, log, seedSearch }
}
