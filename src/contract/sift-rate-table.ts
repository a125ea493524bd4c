/**
 * @module Reads a rate table one item at a time, so one offer or pending partner that breaks the contract
 * is dropped alone and the rest still show (docs/offer-search-api.md#one-bad-offer-never-hides-the-others). Shared
 * by the BFF (which counts and logs the drops) and the widget (which parses whatever a BFF sends).
 */
import * as z from 'zod/mini'
import { uuidString } from './common.ts'
import { isHttpUrl } from './http-url.ts'
import { isoTimestamp, offerSchema, pendingResponseSchema, type RateTable } from './rate-table.ts'

/** The rate table's own fields; its items are read one by one. */
const envelopeSchema = z.looseObject({
  uuid: uuidString('uuid'),
  leadUuid: uuidString('leadUuid'),
  offers: z.array(z.unknown()),
  pendingResponses: z.array(z.unknown()),
  createdAt: isoTimestamp('createdAt'),
})

export interface DroppedItem {
  item: 'offer' | 'pending_response'
  /**
   * `invalid_<field>` (the first top-level field that broke the contract, from the schema, so the set is
   * bounded) or `non_http_link` (the link display rule 3 picks is not http(s): a card without a call to
   * action earns nothing). A pending partner is never dropped whole, only its bad fields: it must stay
   * pending, or polling would stop before it answers.
   */
  reason: string
  /** Offer or partner uuid when it was readable; never a value that could be personal data. */
  id: string | undefined
}

export type SiftResult =
  | { ok: true; table: RateTable; dropped: DroppedItem[] }
  | { ok: false; error: { issues: ReadonlyArray<z.core.$ZodIssue> } }

function reasonOf(issues: ReadonlyArray<z.core.$ZodIssue>, prefix = ''): string {
  const path = issues[0]?.path ?? []
  const at = prefix ? path.indexOf(prefix) + 1 : 0
  const key = path[at]
  return `invalid_${typeof key === 'string' ? key : prefix || 'item'}`
}

function idOf(raw: unknown, key: 'uuid' | 'partner'): string | undefined {
  const value = (raw as Record<string, unknown> | null)?.[key]
  const id = key === 'partner' ? (value as Record<string, unknown> | null)?.uuid : value
  return typeof id === 'string' && id !== '' ? id.slice(0, 200) : undefined
}

const str = (value: unknown) => (typeof value === 'string' ? value : '')

export function siftRateTable(value: unknown): SiftResult {
  const envelope = envelopeSchema.safeParse(value)
  if (!envelope.success) return { ok: false, error: envelope.error }
  const dropped: DroppedItem[] = []
  const offers: RateTable['offers'] = []
  for (const raw of envelope.data.offers) {
    const parsed = offerSchema.safeParse(raw)
    if (!parsed.success) {
      dropped.push({ item: 'offer', reason: reasonOf(parsed.error.issues), id: idOf(raw, 'uuid') })
    } else if (!isHttpUrl(parsed.data.isMonetized ? parsed.data.url : parsed.data.unmonetizedUrl)) {
      dropped.push({ item: 'offer', reason: 'non_http_link', id: parsed.data.uuid })
    } else {
      offers.push(parsed.data)
    }
  }
  const pendingResponses = envelope.data.pendingResponses.map((raw, index) => {
    const parsed = pendingResponseSchema.safeParse(raw)
    if (parsed.success) return parsed.data
    const partner = ((raw as Record<string, unknown> | null)?.partner ?? {}) as Record<string, unknown>
    const id = idOf(raw, 'partner')
    dropped.push({ item: 'pending_response', reason: reasonOf(parsed.error.issues, 'partner'), id })
    // Kept as a still-pending partner with its unreadable fields blanked.
    return {
      partner: {
        uuid: id ?? `unreadable-partner-${index}`,
        name: str(partner.name),
        brandName: str(partner.brandName),
        brandUuid: str(partner.brandUuid),
        imageUrl: str(partner.imageUrl),
        description: str(partner.description),
        disclaimer: str(partner.disclaimer),
        supportsPreSelect: false,
        shouldDisplayPreSelect: false,
        supportsPersonalizedOffers: false,
      },
      offerCatalogProductTypes: [],
    }
  })
  return { ok: true, table: { ...envelope.data, offers, pendingResponses } as RateTable, dropped }
}
