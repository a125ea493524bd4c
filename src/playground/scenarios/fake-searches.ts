/**
 * @module The fake BFF's searches: each stored when created, its rate table at any moment read from the
 * script (the partners that have answered by then), and the two 201 answers: a new search, or, to a repeat
 * applicant, the search of their first application, marked as the real BFF marks it.
 */
import { HttpResponse } from 'msw'
import type { Offer, Partner, RateTable } from '../../contract/offer-search.ts'
import { fakeUuid } from './fixtures.ts'

export interface PartnerScript {
  partner: Partner
  /** Milliseconds after creation when it answers; `null`: never. */
  answersAfterMs: number | null
  offers: Offer[]
  /** The product types it is asked for (`offerCatalogProductTypes`); default `AutomobileInsurance`. */
  productTypes?: string[]
}

/** Who answers when: the part of a fake BFF's script its searches follow. */
export interface SearchScript {
  partners: PartnerScript[]
  /** Offers already in the create response. */
  initialOffers?: Offer[]
  /**
   * A second-look lead: every table carries the `secondLook` extension (lenders asked and answered, and
   * `answerBy` this long after creation), as the marketplace sends it.
   */
  secondLook?: { windowMs: number }
}

export interface StoredSearch {
  table: { uuid: string; leadUuid: string; createdAt: string }
  token: string
  createdAt: number
  polls: number
}

/** Marks a 201 that answers a repeat applicant with the first application's search (the real BFF's header). */
export const DUPLICATE_HEADER = 'Second-Look-Duplicate'

export function createFakeSearches(script: SearchScript) {
  const searches = new Map<string, StoredSearch>()
  /** A repeat applicant's first application: one search, answered to every repeat. */
  let firstApplication: StoredSearch | undefined

  const tableAt = (stored: StoredSearch, elapsed: number): RateTable => {
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

  const store = (createdAt = Date.now()): StoredSearch => {
    const uuid = fakeUuid(5)
    const stored: StoredSearch = {
      table: { uuid, leadUuid: fakeUuid(6), createdAt: new Date(createdAt).toISOString() },
      token: `token-${uuid}`,
      createdAt,
      polls: 0,
    }
    searches.set(uuid, stored)
    return stored
  }

  return {
    store,
    tableAt,
    get: (uuid: string) => searches.get(uuid),
    /** 201 for a new search. */
    created(): Response {
      const stored = store()
      return HttpResponse.json({ accessToken: stored.token, rateTable: tableAt(stored, 0) }, { status: 201 })
    },
    /**
     * 201 for a repeat applicant: the first application's search as it stands now (no partner asked again),
     * with `secondLook.duplicate` on this answer only, as the real BFF's create (its polls do not carry it).
     */
    repeated(firstAppliedAt: string): Response {
      firstApplication ??= store(Date.parse(firstAppliedAt))
      const table = tableAt(firstApplication, Date.now() - firstApplication.createdAt)
      const rateTable = table.secondLook
        ? { ...table, secondLook: { ...table.secondLook, duplicate: { firstAppliedAt } } }
        : table
      return HttpResponse.json(
        { accessToken: firstApplication.token, rateTable },
        { status: 201, headers: { [DUPLICATE_HEADER]: 'true' } },
      )
    },
  }
}
