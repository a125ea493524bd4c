/**
 * @module A scripted, in-memory stand-in for the BFF's widget routes, as msw handlers. Partners answer at
 * set times after the search is created (read from `Date.now()`, so fake timers drive it in tests and
 * the real clock in the playground), and failures can be injected per poll. The second look's front door is
 * here too: the consent texts, the lead's checks (lead-checks.ts), a slow create, a repeat applicant.
 */
import { delay, HttpResponse, http, type RequestHandler } from 'msw'
import { ACCESS_TOKEN_HEADER, BFF_ROUTES, WIDGET_HEADER } from '../../contract/bff.ts'
import { toFieldIssues } from '../../contract/common.ts'
import type { ConsentTexts } from '../../contract/consent.ts'
import { offerSearchInputSchema } from '../../contract/offer-search.ts'
import { MEASURE_PATH, type SearchMeasure, searchMeasureSchema } from '../../contract/placement.ts'
import { duplicateApplicant, bffError as error, fieldsRefused } from './bff-answers.ts'
import { createFakeSearches, type SearchScript } from './fake-searches.ts'
import { issuers, SAMPLE_CONSENT_TEXTS } from './fixtures.ts'
import { checkLead } from './lead-checks.ts'

export interface FakeBffScript extends SearchScript {
  /** Return a Response to fail the n-th poll (1-based) instead of answering it. */
  pollFailure?: (poll: number, elapsedMs: number) => Response | undefined
  /**
   * Return a Response to refuse a POST whose body passed the route's own checks (the search input, or the
   * lead and its consent texts): a refusal of the BFF's own, such as `fieldsRefused` (bff-answers.ts).
   */
  createFailure?: (body: unknown) => Response | undefined
  /** Fake ms every POST takes to answer: the widget shows its "starting" state meanwhile. */
  createDelayMs?: number
  /** The texts `GET /api/second-look/consent` serves and the lead must carry; default the sandbox's. */
  consentTexts?: ConsentTexts
  /**
   * Every lead comes from an applicant who first applied at `firstAppliedAt`, within the duplicate window.
   * While that application's offers can be clicked, the answer is its search (201, `Second-Look-Duplicate:
   * true`, `secondLook.duplicate`); once they expired, 409 `duplicate_applicant`. No partner is asked again.
   */
  repeatApplicant?: { firstAppliedAt: string; offersExpired: boolean }
}

interface FakeBffLog {
  creates: { source: string; body: unknown; headers: Headers }[]
  polls: { uuid: string; at: number; headers: Headers }[]
  /** What the widget measured of each offer search (docs/placements.md), as sent. */
  measures: { uuid: string; measure: SearchMeasure }[]
  issuers: number
  consentTexts: number
}

export interface FakeBff {
  handlers: RequestHandler[]
  log: FakeBffLog
  seedSearch: () => { uuid: string; accessToken: string }
}

/** A fresh fake BFF per story or test, described for the playground's story text. */
export interface Scenario {
  title: string
  description: string
  /** A fresh fake BFF: its own searches and request log, so runs never share state. */
  create: () => FakeBff
}

// long-function: the playground's fake BFF: its msw handlers share one script, its searches and the log a story's play reads
export function createFakeBff(script: FakeBffScript): FakeBff {
  const searches = createFakeSearches(script)
  const log: FakeBffLog = { creates: [], polls: [], measures: [], issuers: 0, consentTexts: 0 }
  const texts = script.consentTexts ?? SAMPLE_CONSENT_TEXTS

  /** The route's own checks: the search input, or a docs/partner-interface.md lead and its consent texts. */
  const check = (source: string, body: unknown): Response | undefined => {
    if (source === BFF_ROUTES.secondLook) {
      const lead = checkLead(body, texts)
      return lead.ok ? undefined : fieldsRefused(lead.errors, lead.message)
    }
    const parsed = offerSearchInputSchema.safeParse(body)
    return parsed.success ? undefined : fieldsRefused(toFieldIssues(parsed.error))
  }

  const create = (source: string) =>
    http.post(`*${source}`, async ({ request }) => {
      const body: unknown = await request.json().catch(() => undefined)
      log.creates.push({ source, body, headers: request.headers })
      if (script.createDelayMs) await delay(script.createDelayMs)
      if (!request.headers.get(WIDGET_HEADER))
        return error(400, 'bad_request', `Send the ${WIDGET_HEADER} header`)
      const refusal = check(source, body) ?? script.createFailure?.(body)
      if (refusal) return refusal
      const repeat = source === BFF_ROUTES.secondLook ? script.repeatApplicant : undefined
      if (repeat?.offersExpired) return duplicateApplicant()
      return repeat ? searches.repeated(repeat.firstAppliedAt) : searches.created()
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
      return HttpResponse.json(searches.tableAt(stored, elapsed))
    })

  /** As the BFF's: the search's own token, a body of searchMeasureSchema, 204. */
  const measure = http.post(
    `*${BFF_ROUTES.offerSearches}/:uuid/${MEASURE_PATH}`,
    async ({ request, params }) => {
      const uuid = String(params.uuid)
      const stored = searches.get(uuid)
      if (!stored) return error(404, 'not_found', 'No such search')
      if (request.headers.get(ACCESS_TOKEN_HEADER) !== stored.token) {
        return error(403, 'forbidden', `Send the access token in ${ACCESS_TOKEN_HEADER}`)
      }
      const parsed = searchMeasureSchema.safeParse(await request.json().catch(() => undefined))
      if (!parsed.success) return fieldsRefused(toFieldIssues(parsed.error))
      log.measures.push({ uuid, measure: parsed.data })
      return new HttpResponse(null, { status: 204 })
    },
  )

  const handlers: RequestHandler[] = [
    measure,
    http.get(`*${BFF_ROUTES.issuers}`, ({ request }) => {
      log.issuers += 1
      if (!request.headers.get(WIDGET_HEADER))
        return error(400, 'bad_request', `Send the ${WIDGET_HEADER} header`)
      return HttpResponse.json(issuers)
    }),
    create(BFF_ROUTES.offerSearches),
    poll(BFF_ROUTES.offerSearches),
    // Before the polls of /api/second-look/:uuid, which its path would match.
    http.get(`*${BFF_ROUTES.consentTexts}`, ({ request }) => {
      log.consentTexts += 1
      if (!request.headers.get(WIDGET_HEADER))
        return error(400, 'bad_request', `Send the ${WIDGET_HEADER} header`)
      return HttpResponse.json(texts)
    }),
    create(BFF_ROUTES.secondLook),
    poll(BFF_ROUTES.secondLook),
  ]
  /** A search "created on the publisher's server", for the widget to attach to. */
  const seedSearch = () => {
    const stored = searches.store()
    return { uuid: stored.table.uuid, accessToken: stored.token }
  }
  return { handlers, log, seedSearch }
}
